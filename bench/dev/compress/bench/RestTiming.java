package dev.compress.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.compress.harness.BenchData;
import java.io.IOException;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the sections that search a real node through REST share: one client sending one query after
 * another (each query once as a warm-up, then each once timed; or several indexes timed together in
 * one {@link InterleavedPass}), the hits' ids read from the answer,
 * recall against exact search, queries per second and p50 / p99 latency. The {@code node} and
 * {@code knn} sections both use it, so their figures are taken the same way.
 */
final class RestTiming {

    private static final ObjectMapper JSON = new ObjectMapper();

    private RestTiming() {}

    /**
     * {@code recall@10}, {@code qps_1_client}, {@code p50_ms} and {@code p99_ms} of the search bodies
     * ({@code bodies[q]} for query q, whose exact answer is {@code truth[q]}) against {@code index}.
     */
    static Map<String, Object> oneClient(NodeHttp client, String index, List<String> bodies, int[][] truth)
            throws IOException {
        for (String body : bodies) {
            search(client, index, body); // warm-up
        }
        long[] nanos = new long[bodies.size()];
        double recall = 0;
        for (int q = 0; q < bodies.size(); q++) {
            long t = System.nanoTime();
            int[] ids = search(client, index, bodies.get(q));
            nanos[q] = System.nanoTime() - t;
            recall += BenchData.recall(truth[q], ids);
        }
        return row(recall / bodies.size(), nanos);
    }

    /**
     * The same figures for several indexes timed together in one {@link InterleavedPass}.
     *
     * @param bodies {@code bodies.get(i).get(q)}: query q's search body for {@code indexes.get(i)}
     * @return one row per index, in the order of {@code indexes}
     */
    static List<Map<String, Object>> interleaved(
            NodeHttp client, List<String> indexes, List<List<String>> bodies, int[][] truth, int rounds)
            throws IOException {
        int n = indexes.size();
        int queries = truth.length;
        long[][] nanos = new long[n][queries * rounds];
        double[] recall = new double[n];
        InterleavedPass.run(n, queries, rounds, (i, q, round) -> {
            long t = System.nanoTime();
            int[] ids = search(client, indexes.get(i), bodies.get(i).get(q));
            long elapsed = System.nanoTime() - t;
            if (round >= 0) {
                nanos[i][round * queries + q] = elapsed;
                recall[i] += BenchData.recall(truth[q], ids);
            }
        });
        List<Map<String, Object>> rows = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            rows.add(row(recall[i] / (queries * (double) rounds), nanos[i]));
        }
        return rows;
    }

    /** A row of the mean recall and of the latencies' rate and percentiles. */
    private static Map<String, Object> row(double recall, long[] nanos) {
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("recall@10", recall);
        row.put("qps_1_client", nanos.length / (Arrays.stream(nanos).sum() / 1e9));
        row.put("p50_ms", percentile(nanos, 0.5));
        row.put("p99_ms", percentile(nanos, 0.99));
        return row;
    }

    /**
     * The mean time, in milliseconds, the shard itself spent on each search body, as the profile
     * API reports it: the rewrite (where a Lucene k-NN query searches), the query's weight and
     * scoring, and the collectors. What a request costs beyond that (HTTP, parsing the query, the
     * search's phases, the response) is not in it, so it compares the indexes' own search work.
     */
    static double shardSearchMillis(NodeHttp client, String index, List<String> bodies) throws IOException {
        long nanos = 0;
        for (String body : bodies) {
            JsonNode search = JSON.readTree(client.call(
                            "POST",
                            "/" + index + "/_search?filter_path=profile.shards.searches",
                            "{\"profile\":true," + body.substring(body.indexOf('{') + 1)))
                    .at("/profile/shards/0/searches/0");
            nanos += search.at("/rewrite_time").asLong();
            for (JsonNode part : List.of(search.at("/query"), search.at("/collector"))) {
                for (JsonNode node : part) {
                    nanos += node.at("/time_in_nanos").asLong();
                }
            }
        }
        return nanos / 1e6 / bodies.size();
    }

    /** The ids (corpus rows) of one search's hits, best first. */
    static int[] search(NodeHttp client, String index, String body) throws IOException {
        JsonNode hits = JSON.readTree(client.call("POST", "/" + index + "/_search?filter_path=hits.hits._id", body))
                .at("/hits/hits");
        int[] ids = new int[hits.size()];
        for (int i = 0; i < ids.length; i++) {
            ids[i] = Integer.parseInt(hits.get(i).get("_id").asText());
        }
        return ids;
    }

    /** The {@code p} quantile of the latencies, in milliseconds. */
    static double percentile(long[] nanos, double p) {
        long[] sorted = nanos.clone();
        Arrays.sort(sorted);
        return sorted[Math.max(0, (int) Math.ceil(sorted.length * p) - 1)] / 1e6;
    }

    /** Sets {@code property} to a free port unless it is set already. */
    static void freePort(String property) throws IOException {
        if (System.getProperty(property) == null) {
            try (ServerSocket socket = new ServerSocket(0)) {
                System.setProperty(property, Integer.toString(socket.getLocalPort()));
            }
        }
    }
}
