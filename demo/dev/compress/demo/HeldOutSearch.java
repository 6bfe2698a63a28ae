package dev.compress.demo;

import dev.compress.training.data.EvalSet;
import dev.compress.training.eval.RetrievalMetrics;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Runs every held-out query through one configuration with {@code _msearch} and scores the top 10
 * against the held-out judgments (which the cluster never saw). Latency is each search's own
 * {@code took}: the node's time for that query, free of the batch's client round trip, in a second
 * pass over the queries. The first pass is untimed: it loads the field's graph and codes, and it
 * runs the configuration's scoring kernels until the JIT has compiled them (a rescoring kernel's
 * Vector API code is slower before that).
 */
final class HeldOutSearch {

    static final int K = 10;
    private static final int BATCH = 20;

    private HeldOutSearch() {}

    @SuppressWarnings("unchecked")
    static ConfigurationResult run(JsonRest rest, SearchConfiguration config, EvalSet heldOut) throws IOException {
        int n = heldOut.queries().size();
        double[] ndcg = new double[n];
        double[] recall = new double[n];
        double[] took = new double[n];
        for (int from = 0; from < n; from += BATCH) {
            search(rest, config, heldOut, from, Math.min(n, from + BATCH));
        }
        long start = System.nanoTime();
        for (int from = 0; from < n; from += BATCH) {
            int to = Math.min(n, from + BATCH);
            List<Map<String, Object>> responses = search(rest, config, heldOut, from, to);
            for (int q = from; q < to; q++) {
                Map<String, Object> response = responses.get(q - from);
                List<Map<String, Object>> hits =
                        (List<Map<String, Object>>) ((Map<String, Object>) response.get("hits")).get("hits");
                List<String> ranked =
                        hits.stream().map(h -> (String) h.get("_id")).toList();
                Map<String, Integer> judgments =
                        heldOut.qrels().judgments(heldOut.queries().id(q));
                ndcg[q] = RetrievalMetrics.ndcg(ranked, judgments, K);
                recall[q] = RetrievalMetrics.recall(ranked, judgments, K);
                took[q] = ((Number) response.get("took")).doubleValue();
            }
        }
        return new ConfigurationResult(config, ndcg, recall, took, (System.nanoTime() - start) / 1e9);
    }

    /** The responses of held-out queries {@code from} (inclusive) to {@code to}, in one {@code _msearch}. */
    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> search(
            JsonRest rest, SearchConfiguration config, EvalSet heldOut, int from, int to) throws IOException {
        StringBuilder body = new StringBuilder();
        for (int q = from; q < to; q++) {
            Map<String, Object> search = new LinkedHashMap<>();
            search.put("size", K);
            search.put("_source", false);
            search.put("query", config.query(heldOut.queries().row(q), K));
            body.append(JsonRest.JSON.writeValueAsString(Map.of("index", config.index())))
                    .append('\n');
            body.append(JsonRest.JSON.writeValueAsString(search)).append('\n');
        }
        List<Map<String, Object>> responses = (List<Map<String, Object>>)
                rest.call("POST", "/_msearch", body.toString()).get("responses");
        for (int q = from; q < to; q++) {
            if (responses.get(q - from).containsKey("error")) {
                throw new IOException(
                        "[" + config.label() + "] query [" + heldOut.queries().id(q) + "] failed: "
                                + responses.get(q - from).get("error"));
            }
        }
        return responses;
    }
}
