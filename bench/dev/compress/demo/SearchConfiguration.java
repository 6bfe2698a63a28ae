package dev.compress.demo;

import dev.compress.codec.binary.SignBinarizer;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One way of searching the corpus, as a user would write it: a {@code compressed_knn} query on a
 * field, with its options. The bytes per vector follow from the field's encoding: the part the graph
 * walk reads (codes, or the floats of a float field; graph links excluded, they are the same for all)
 * and what the field keeps on disk (plus the floats kept for rescoring).
 *
 * @param options    extra {@code compressed_knn} parameters ({@code model_id}, {@code rescore}, {@code num_candidates})
 * @param rescored   whether the binary field's stored floats rescore the candidates
 */
public record SearchConfiguration(String label, String index, String field, int dims, boolean binary, boolean rescored, Map<String, Object> options) {

    public static SearchConfiguration floats(String label, String index, String field, int dims, Map<String, Object> options) {
        return new SearchConfiguration(label, index, field, dims, false, false, options);
    }

    public static SearchConfiguration binary(String label, String index, String field, int dims, boolean rescored, Map<String, Object> options) {
        Map<String, Object> all = new LinkedHashMap<>(options);
        if (rescored == false) {
            all.put("rescore", false);
        }
        return new SearchConfiguration(label, index, field, dims, true, rescored, all);
    }

    /** Bytes per vector the search reads: 1-bit codes with their corrections, or float32 values. */
    public int searchBytes() {
        return binary ? SignBinarizer.recordBytes(dims) : dims * Float.BYTES;
    }

    /** Bytes per vector on disk; binary fields here keep their floats for rescoring. */
    public int diskBytes() {
        return binary ? SignBinarizer.recordBytes(dims) + dims * Float.BYTES : dims * Float.BYTES;
    }

    /** The {@code compressed_knn} query for one query vector. */
    public Map<String, Object> query(float[] vector, int k) {
        Map<String, Object> knn = new LinkedHashMap<>();
        knn.put("field", field);
        knn.put("vector", vector);
        knn.put("k", k);
        knn.putAll(options);
        return Map.of("compressed_knn", knn);
    }
}
