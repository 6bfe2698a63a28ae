package dev.compress.demo;

import dev.compress.training.data.VectorRows;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The product's serving side: an ingest pipeline with {@code compress} processors and an index whose
 * documents arrive as raw vectors and leave as compressed ones. The raw 384-d vector itself lands in a
 * 1-bit field ({@code vector}); the pipeline writes the model's output to a float field
 * ({@code adapted}) and a 1-bit field ({@code adapted_bits}), and plain Matryoshka truncation to
 * {@code first_n} and PCA ({@code pca}, when the method is not PCA itself) for comparison.
 */
final class CompressedIndex {

    /** The share at which the mask model judges its tau grid (Table 1 of Learning to Select reports 30%). */
    static final double MASK_RATIO = 0.3;

    final String index;
    final String pipeline;

    CompressedIndex(String dataset) {
        this.index = "demo-" + dataset + "-compressed";
        this.pipeline = "demo-" + dataset + "-compress";
    }

    /** @param pcaModelId a PCA model at the same dims to set beside the method's, or null */
    void create(JsonRest rest, String modelId, String pcaModelId, int inputDims, int dims) throws IOException {
        List<Map<String, Object>> processors = new ArrayList<>(List.of(
                compress(Map.of("model_id", modelId, "field", "vector", "target_field", "adapted")),
                compress(Map.of("model_id", modelId, "field", "vector", "target_field", "adapted_bits")),
                compress(Map.of("truncate_to", dims, "field", "vector", "target_field", "first_n"))));
        Map<String, Object> fields = new LinkedHashMap<>(Map.of(
                "vector", Map.of("type", "compressed_vector", "dimension", inputDims, "encoding", "binary"),
                "adapted", Map.of("type", "compressed_vector", "dimension", dims, "encoding", "float"),
                "adapted_bits", Map.of("type", "compressed_vector", "dimension", dims, "encoding", "binary"),
                "first_n", Map.of("type", "compressed_vector", "dimension", dims, "encoding", "float")));
        if (pcaModelId != null) {
            processors.add(compress(Map.of("model_id", pcaModelId, "field", "vector", "target_field", "pca")));
            fields.put("pca", Map.of("type", "compressed_vector", "dimension", dims, "encoding", "float"));
        }
        rest.call(
                "PUT",
                "/_ingest/pipeline/" + pipeline,
                Map.of(
                        "description",
                        "./compress demo: raw vectors through model [" + modelId + "] and through truncation",
                        "processors",
                        processors));
        TrainingIndices.create(rest, index, fields, Map.of("default_pipeline", pipeline));
    }

    private static Map<String, Object> compress(Map<String, Object> parameters) {
        return Map.of("compress", parameters);
    }

    /** Indexes every corpus vector through the pipeline; reports progress per batch. */
    int index(JsonRest rest, VectorRows corpus, ProgressDisplay progress) throws IOException {
        BulkLoader bulk = new BulkLoader(rest, "/" + index + "/_bulk");
        for (int i = 0; i < corpus.size(); i++) {
            bulk.add(corpus.id(i), Map.of("vector", corpus.row(i)));
            if (i % 1000 == 999) {
                progress.status("ingest", (i + 1) + " / " + corpus.size() + " documents");
            }
        }
        int sent = bulk.flush();
        rest.call("POST", "/" + index + "/_refresh", null);
        return sent;
    }

    /**
     * The configurations the job compares. The baseline is the frozen float32 vectors searched with a
     * beam as large as the corpus (exact search); the rest use the query's defaults.
     */
    List<SearchConfiguration> configurations(
            String corpusIndex,
            int corpusSize,
            int inputDims,
            String method,
            String modelId,
            int dims,
            String maskModelId,
            String pcaModelId) {
        Map<String, Object> model = Map.of("model_id", modelId);
        // no ratio: the mask and share the model's training chose on validation, as a user's default
        Map<String, Object> mask = Map.of("type", "learned", "model_id", maskModelId);
        String masked = " + learned mask";
        List<SearchConfiguration> all = new ArrayList<>();
        all.add(SearchConfiguration.floats(
                "float32 " + inputDims + "-d, exact (baseline)",
                corpusIndex,
                "vector",
                inputDims,
                Map.of("num_candidates", corpusSize)));
        all.add(SearchConfiguration.floats(
                "float32 " + inputDims + "-d, HNSW", corpusIndex, "vector", inputDims, Map.of()));
        all.add(SearchConfiguration.binary(
                "binary " + inputDims + " bits", index, "vector", inputDims, false, Map.of()));
        all.add(SearchConfiguration.binary(
                "binary " + inputDims + " bits + rescore", index, "vector", inputDims, true, Map.of()));
        all.add(SearchConfiguration.floats(
                "float32 " + inputDims + "-d, exact" + masked,
                corpusIndex,
                "vector",
                inputDims,
                Map.of("num_candidates", corpusSize, "mask", mask)));
        all.add(SearchConfiguration.binary(
                "binary " + inputDims + " bits + rescore" + masked,
                index,
                "vector",
                inputDims,
                true,
                Map.of("mask", mask)));
        all.add(SearchConfiguration.truncated("first " + dims + " dims (truncation)", index, "first_n", dims));
        if (pcaModelId != null) {
            all.add(SearchConfiguration.floats(
                    "pca " + dims + "-d float", index, "pca", dims, Map.of("model_id", pcaModelId)));
        }
        all.add(SearchConfiguration.floats(method + " " + dims + "-d float", index, "adapted", dims, model));
        all.add(SearchConfiguration.binary(method + " " + dims + " bits", index, "adapted_bits", dims, false, model));
        all.add(SearchConfiguration.binary(
                method + " " + dims + " bits + rescore", index, "adapted_bits", dims, true, model));
        return all;
    }
}
