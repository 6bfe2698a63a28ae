package dev.compress.bench;

import java.io.IOException;
import java.util.Arrays;
import java.util.Random;

/**
 * Synthetic training data for the {@code load} section's jobs, loaded through a node's REST API:
 * {@value #DOCS} random {@value #DIM}-d corpus vectors, {@value #QUERIES} queries each near one
 * document, and judgments that make that document and the next two relevant. What the jobs learn
 * does not matter here, only that they load the nodes as real ones do.
 */
final class LoadTrainingData {

    static final int DIM = 32;
    static final int DOCS = 2_000;
    static final int QUERIES = 200;
    static final int EPOCHS = 3;
    private static final String CORPUS = "load-train-corpus";
    private static final String QUERY_INDEX = "load-train-queries";
    private static final String JUDGMENTS = "load-train-judgments";

    private LoadTrainingData() {}

    static void load(NodeHttp node, Random random) throws IOException {
        String settings = "\"settings\":{\"number_of_shards\":1,\"number_of_replicas\":0,\"index.compress\":true}";
        String vector = "{\"type\":\"compressed_vector\",\"dimension\":" + DIM + ",\"encoding\":\"float\"}";
        node.call("PUT", "/" + CORPUS, "{" + settings + ",\"mappings\":{\"properties\":{\"vector\":" + vector + "}}}");
        node.call(
                "PUT",
                "/" + QUERY_INDEX,
                "{" + settings + ",\"mappings\":{\"properties\":{\"query_id\":{\"type\":\"keyword\"},\"vector\":"
                        + vector + "}}}");
        node.call(
                "PUT",
                "/" + JUDGMENTS,
                "{" + settings + ",\"mappings\":{\"properties\":{\"query_id\":{\"type\":\"keyword\"},"
                        + "\"doc_id\":{\"type\":\"keyword\"},\"rating\":{\"type\":\"integer\"}}}}");
        float[][] docs = new float[DOCS][];
        StringBuilder bulk = new StringBuilder();
        for (int i = 0; i < DOCS; i++) {
            docs[i] = near(random, null);
            bulk.append("{\"index\":{\"_index\":\"" + CORPUS + "\",\"_id\":\"d")
                    .append(i)
                    .append("\"}}\n{\"vector\":")
                    .append(Arrays.toString(docs[i]))
                    .append("}\n");
        }
        for (int q = 0; q < QUERIES; q++) {
            int first = random.nextInt(DOCS - 3);
            bulk.append("{\"index\":{\"_index\":\"" + QUERY_INDEX + "\"}}\n{\"query_id\":\"q")
                    .append(q)
                    .append("\",\"vector\":")
                    .append(Arrays.toString(near(random, docs[first])))
                    .append("}\n");
            for (int j = 0; j < 3; j++) {
                bulk.append("{\"index\":{\"_index\":\"" + JUDGMENTS + "\"}}\n{\"query_id\":\"q")
                        .append(q)
                        .append("\",\"doc_id\":\"d")
                        .append(first + j)
                        .append("\",\"rating\":")
                        .append(1 + j % 2)
                        .append("}\n");
            }
        }
        String response = node.call("POST", "/_bulk?refresh=true", bulk.toString());
        if (response.contains("\"errors\":true")) {
            throw new IOException("loading the training data failed: " + response.substring(0, 500));
        }
    }

    /** The {@code _train} body of every job: dive to 16 dimensions. */
    static String trainBody() {
        return "{\"method\":\"dive\",\"dimensions\":16,\"parameters\":{\"epochs\":" + EPOCHS + "},"
                + "\"corpus\":{\"index\":\"" + CORPUS + "\",\"vector_field\":\"vector\"},"
                + "\"queries\":{\"index\":\"" + QUERY_INDEX + "\"},"
                + "\"judgments\":{\"index\":\"" + JUDGMENTS + "\"}}";
    }

    /** Standard normal components, or {@code centre} plus noise of scale 0.3. */
    private static float[] near(Random random, float[] centre) {
        float[] v = new float[DIM];
        for (int j = 0; j < DIM; j++) {
            v[j] = centre == null ? (float) random.nextGaussian() : centre[j] + 0.3f * (float) random.nextGaussian();
        }
        return v;
    }
}
