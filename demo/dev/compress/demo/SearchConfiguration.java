package dev.compress.demo;

import dev.compress.codec.binary.BinaryFlatVectorsFormat;
import dev.compress.codec.binary.SignBinarizer;
import dev.compress.training.inference.VectorPrefix;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One way of searching the corpus, as a user would write it: a {@code compressed_knn} query on a
 * field, with its options. The bytes per vector follow from the field's encoding: the part the graph
 * walk reads (codes, or the floats of a float field; graph links excluded, they are the same for all)
 * and what the field keeps on disk (plus the floats kept for rescoring).
 *
 * @param options     extra {@code compressed_knn} parameters ({@code model_id}, {@code rescore}, {@code num_candidates})
 * @param rescored    whether the binary field's stored floats rescore the candidates
 * @param queryPrefix when above 0, the client sends the query's first {@code queryPrefix} values, L2-renormalised
 *                    (plain Matryoshka truncation has no model to adapt the query on the node)
 */
public record SearchConfiguration(
        String label,
        String index,
        String field,
        int dims,
        boolean binary,
        boolean rescored,
        Map<String, Object> options,
        int queryPrefix) {

    public static SearchConfiguration floats(
            String label, String index, String field, int dims, Map<String, Object> options) {
        return new SearchConfiguration(label, index, field, dims, false, false, options, 0);
    }

    /** A float field of truncated vectors, searched with the truncated query. */
    public static SearchConfiguration truncated(String label, String index, String field, int dims) {
        return new SearchConfiguration(label, index, field, dims, false, false, Map.of(), dims);
    }

    public static SearchConfiguration binary(
            String label, String index, String field, int dims, boolean rescored, Map<String, Object> options) {
        Map<String, Object> all = new LinkedHashMap<>(options);
        if (rescored == false) {
            all.put("rescore", false);
        }
        return new SearchConfiguration(label, index, field, dims, true, rescored, all, 0);
    }

    /** Bytes per vector the search reads: 1-bit codes with their corrections, or float32 values. */
    public int searchBytes() {
        return binary ? SignBinarizer.recordBytes(dims) : dims * Float.BYTES;
    }

    /**
     * Bytes per vector on disk; binary fields here keep their floats for rescoring, packed (the rare
     * component outside its dimension's usual exponents adds 8 bytes, not counted here).
     */
    public int diskBytes() {
        return binary
                ? SignBinarizer.recordBytes(dims) + BinaryFlatVectorsFormat.packedFloatBytes(dims)
                : dims * Float.BYTES;
    }

    /** The {@code compressed_knn} query for one query vector. */
    public Map<String, Object> query(float[] vector, int k) {
        Map<String, Object> knn = new LinkedHashMap<>();
        knn.put("field", field);
        knn.put("vector", queryPrefix > 0 ? VectorPrefix.of(vector, queryPrefix, true) : vector);
        knn.put("k", k);
        knn.putAll(options);
        return Map.of("compressed_knn", knn);
    }
}
