package dev.compress.plugin.train;

import static org.junit.Assert.assertFalse;

import java.util.Map;
import java.util.Random;
import org.opensearch.action.bulk.BulkRequestBuilder;
import org.opensearch.action.bulk.BulkResponse;
import org.opensearch.action.support.WriteRequest;
import org.opensearch.common.settings.Settings;
import org.opensearch.transport.client.Client;

/**
 * Small training data made on the spot, for tests about jobs rather than about what they learn:
 * {@value #CORPUS} ({@value #DOCS} random {@value #DIM}-d vectors), {@value #QUERIES} (each query
 * near one document) and {@value #JUDGMENTS} (that document and the next two relevant).
 */
final class SyntheticIndices {

    static final String CORPUS = "synthetic-corpus";
    static final String QUERIES = "synthetic-queries";
    static final String JUDGMENTS = "synthetic-judgments";
    static final int DIM = 32;
    static final int DOCS = 2000;
    static final int QUERY_COUNT = 100;

    private SyntheticIndices() {}

    static void load(Client client, Random random) {
        Settings one = Settings.builder()
                .put("index.number_of_shards", 1)
                .put("index.number_of_replicas", 0)
                .put("index.compress", true)
                .build();
        String vector = "{\"type\":\"compressed_vector\",\"dimension\":" + DIM + ",\"encoding\":\"float\"}";
        client.admin()
                .indices()
                .prepareCreate(CORPUS)
                .setSettings(one)
                .setMapping("{\"properties\":{\"vector\":" + vector + "}}")
                .get();
        client.admin()
                .indices()
                .prepareCreate(QUERIES)
                .setSettings(one)
                .setMapping("{\"properties\":{\"query_id\":{\"type\":\"keyword\"},\"vector\":" + vector + "}}")
                .get();
        client.admin()
                .indices()
                .prepareCreate(JUDGMENTS)
                .setSettings(one)
                .setMapping(
                        "{\"properties\":{\"query_id\":{\"type\":\"keyword\"},\"doc_id\":{\"type\":\"keyword\"},\"rating\":{\"type\":\"integer\"}}}")
                .get();
        float[][] docs = new float[DOCS][];
        BulkRequestBuilder bulk = client.prepareBulk().setRefreshPolicy(WriteRequest.RefreshPolicy.IMMEDIATE);
        for (int i = 0; i < DOCS; i++) {
            docs[i] = gaussian(random, null, 0);
            bulk.add(client.prepareIndex(CORPUS).setId("d" + i).setSource(Map.of("vector", docs[i])));
        }
        for (int q = 0; q < QUERY_COUNT; q++) {
            int first = random.nextInt(DOCS - 3);
            bulk.add(client.prepareIndex(QUERIES)
                    .setId("q" + q)
                    .setSource(Map.of("query_id", "q" + q, "vector", gaussian(random, docs[first], 0.3f))));
            for (int j = 0; j < 3; j++) {
                bulk.add(client.prepareIndex(JUDGMENTS)
                        .setSource(Map.of("query_id", "q" + q, "doc_id", "d" + (first + j), "rating", 1 + j % 2)));
            }
        }
        BulkResponse indexed = bulk.get();
        assertFalse(indexed.buildFailureMessage(), indexed.hasFailures());
    }

    /** Standard normal components, or {@code near} plus noise of scale {@code noise}. */
    private static float[] gaussian(Random random, float[] near, float noise) {
        float[] v = new float[DIM];
        for (int j = 0; j < DIM; j++) {
            v[j] = near == null ? (float) random.nextGaussian() : near[j] + noise * (float) random.nextGaussian();
        }
        return v;
    }

    /** A {@code _train} body on these indices; {@code dims} null for none (the mask predictor). */
    static Map<String, Object> trainBody(String method, Integer dims, Map<String, Object> parameters) {
        Map<String, Object> body = new java.util.LinkedHashMap<>();
        body.put("method", method);
        if (dims != null) {
            body.put("dimensions", dims);
        }
        body.put("parameters", parameters);
        body.put("corpus", Map.of("index", CORPUS, "vector_field", "vector"));
        body.put("queries", Map.of("index", QUERIES));
        body.put("judgments", Map.of("index", JUDGMENTS));
        return body;
    }
}
