package dev.compress.demo;

import dev.compress.training.data.EmbeddedDataset;
import dev.compress.training.data.Qrels;
import dev.compress.training.data.VectorRows;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The indices a user holds before training: the corpus ({@code vector}, a 384-d float
 * {@code compressed_vector}), the queries of the training judgments ({@code query_id}, {@code vector})
 * and the training judgments ({@code query_id}, {@code doc_id}, {@code rating}). The held-out queries
 * and their judgments never enter the cluster.
 */
final class TrainingIndices {

    final String corpus;
    final String queries;
    final String judgments;

    TrainingIndices(String dataset) {
        this.corpus = "demo-" + dataset + "-corpus";
        this.queries = "demo-" + dataset + "-queries";
        this.judgments = "demo-" + dataset + "-judgments";
    }

    /** Creates and fills the three indices; returns the number of judgments loaded. */
    int load(JsonRest rest, EmbeddedDataset data, Qrels train) throws IOException {
        Map<String, Object> floatVector =
                Map.of("type", "compressed_vector", "dimension", data.dim(), "encoding", "float");
        Map<String, Object> keyword = Map.of("type", "keyword");
        create(rest, corpus, Map.of("vector", floatVector));
        create(rest, queries, Map.of("query_id", keyword, "vector", floatVector));
        create(rest, judgments, Map.of("query_id", keyword, "doc_id", keyword, "rating", Map.of("type", "integer")));

        VectorRows docs = data.corpus();
        BulkLoader corpusBulk = new BulkLoader(rest, "/" + corpus + "/_bulk");
        for (int i = 0; i < docs.size(); i++) {
            corpusBulk.add(docs.id(i), Map.of("vector", docs.row(i)));
        }
        corpusBulk.flush();

        BulkLoader queryBulk = new BulkLoader(rest, "/" + queries + "/_bulk");
        BulkLoader judgmentBulk = new BulkLoader(rest, "/" + judgments + "/_bulk");
        int loaded = 0;
        for (String q : train.queryIds()) {
            int row = data.queries().rowOf(q);
            if (row < 0) {
                throw new IOException("judged query [" + q + "] has no vector");
            }
            queryBulk.add(q, Map.of("query_id", q, "vector", data.queries().row(row)));
            for (Map.Entry<String, Integer> j : train.judgments(q).entrySet()) {
                judgmentBulk.add(null, Map.of("query_id", q, "doc_id", j.getKey(), "rating", j.getValue()));
                loaded++;
            }
        }
        queryBulk.flush();
        judgmentBulk.flush();
        rest.call("POST", "/" + String.join(",", List.of(corpus, queries, judgments)) + "/_refresh", null);
        return loaded;
    }

    static void create(JsonRest rest, String index, Map<String, Object> properties) throws IOException {
        create(rest, index, properties, Map.of());
    }

    /** A one-shard index without replicas (one node) and the given extra settings. */
    static void create(JsonRest rest, String index, Map<String, Object> properties, Map<String, Object> settings)
            throws IOException {
        Map<String, Object> all =
                new LinkedHashMap<>(Map.of("number_of_shards", 1, "number_of_replicas", 0, "index.compress", true));
        all.putAll(settings);
        rest.call("PUT", "/" + index, Map.of("settings", all, "mappings", Map.of("properties", properties)));
    }
}
