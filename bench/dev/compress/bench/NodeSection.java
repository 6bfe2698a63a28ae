package dev.compress.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.compress.harness.BenchData;
import dev.compress.harness.RealNode;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Ingest and search through a real OpenSearch 3.6.0 node's REST API (the distribution and the
 * built plugin zip, as the real-node tests use them): bulk throughput into {@code
 * compressed_vector} fields, with and without the {@code compress} ingest pipeline, force-merge
 * time, {@code compressed_knn} latency and throughput for one client and for several concurrent
 * clients, and the first searches after a restart with and without warmup. One shard, synthetic
 * 384-d vectors; recall against exact search.
 */
final class NodeSection implements BenchSection {

    private static final int K = 10;
    private static final int BULK = 500;
    private static final ObjectMapper JSON = new ObjectMapper();

    /** Plain searches that compile OpenSearch's handling of a search request in the restart table. */
    private static final int WARMING_REQUESTS = 1_000;

    /** An index, its mapping of field {@code v}, and whether its vectors leave {@code _source}. */
    private record Target(String index, String mapping, String pipeline, boolean derivedSource) {}

    /** A search: index, body parameters beyond field / vector / k. */
    private record Search(String label, String index, String extra) {}

    @Override
    public String name() {
        return "node";
    }

    @Override
    public List<ResultTable> run(BenchMode mode) throws Exception {
        int docs = Integer.getInteger("bench.node.docs", mode.full() ? 100_000 : 20_000);
        int clients = Integer.getInteger("bench.node.clients", 4);
        BenchData data = BenchData.synthetic(docs, 500, 384, 42);
        int[][] truth = data.exactTopK(K);
        RestTiming.freePort("realnode.http.port");
        RestTiming.freePort("realnode.transport.port");
        System.setProperty(
                "realnode.workdir",
                BenchPaths.output().resolve("realnode").toAbsolutePath().toString());
        ResultTable ingest = new ResultTable(
                "Ingest through the node's REST API (" + docs + " x 384 synthetic, bulks of " + BULK
                        + ", one client, 1 shard)",
                List.of(
                        "index",
                        "pipeline",
                        "docs_per_s",
                        "ratio_to_float",
                        "force_merge_s",
                        "store_mb",
                        "store_bytes_per_doc"));
        ResultTable search = new ResultTable(
                "compressed_knn through the REST API, k = 10 (" + docs + " docs, 500 queries)",
                List.of(
                        "search",
                        "recall@10",
                        "qps_1_client",
                        "p50_ms",
                        "p99_ms",
                        "qps_" + clients + "_clients",
                        "p50_ms_" + clients + "_clients",
                        "p99_ms_" + clients + "_clients"));
        ResultTable restart;
        try (RealNode node = RealNode.fromBuild()) {
            node.start();
            NodeHttp client = new NodeHttp(node.httpPort());
            client.call(
                    "PUT",
                    "/_ingest/pipeline/first-128",
                    "{\"processors\":[{\"compress\":{\"truncate_to\":128,\"field\":\"raw\",\"target_field\":\"v\"}}]}");
            List<Target> targets = List.of(
                    new Target("float", mapping(384, "float"), null, true),
                    new Target("float-in-source", mapping(384, "float"), null, false),
                    new Target("binary", mapping(384, "binary"), null, true),
                    new Target("first128", mapping(128, "binary"), null, true),
                    new Target("first128-pipeline", mapping(128, "binary"), "first-128", true));
            double floatRate = Double.NaN;
            for (Target target : targets) {
                client.call(
                        "PUT",
                        "/" + target.index(),
                        "{\"settings\":{\"number_of_shards\":1,\"number_of_replicas\":0,\"index.compress\":true,\"refresh_interval\":\"-1\","
                                // store sizes are otherwise cached for 10 s, and would count the merged-away segments
                                + "\"index.store.stats_refresh_interval\":\"0s\","
                                + "\"index.compress.derived_source\":" + target.derivedSource() + "},\"mappings\":"
                                + target.mapping() + "}");
                double rate = bulk(client, target, data.corpus());
                long mergeStart = System.nanoTime();
                client.call("POST", "/" + target.index() + "/_forcemerge?max_num_segments=1", null);
                double merge = (System.nanoTime() - mergeStart) / 1e9;
                client.call("POST", "/" + target.index() + "/_refresh", null);
                JsonNode stats = JSON.readTree(client.call("GET", "/" + target.index() + "/_stats/store", null));
                if (target.index().equals("float")) {
                    floatRate = rate;
                }
                Map<String, Object> row = new LinkedHashMap<>();
                row.put(
                        "index",
                        target.index() + " (" + (target.mapping().contains("\"binary\"") ? "binary" : "float") + ", "
                                + (target.mapping().contains("384") ? 384 : 128) + "-d"
                                + (target.derivedSource() ? "" : ", vectors kept in _source") + ")");
                row.put(
                        "pipeline",
                        target.pipeline() == null
                                ? "none"
                                : target.pipeline() + " (truncate_to 128 from the 384-d vector)");
                row.put("docs_per_s", rate);
                row.put("ratio_to_float", rate / floatRate);
                row.put("force_merge_s", merge);
                double storeBytes =
                        stats.at("/_all/primaries/store/size_in_bytes").asDouble();
                row.put("store_mb", storeBytes / 1e6);
                row.put("store_bytes_per_doc", storeBytes / data.corpus().length);
                ingest.add(row);
            }
            ingest.note(
                    "store_mb: the whole shard after a merge to one segment: vectors, graphs, _source and other stored"
                            + " fields. Vectors leave _source (index.compress.derived_source, the default) except in the index"
                            + " marked as keeping them there.");
            for (Search s : List.of(
                    new Search("float32 HNSW, num_candidates 50", "float", ",\"num_candidates\":50"),
                    new Search("binary, 3x rescored", "binary", ",\"rescore\":{\"oversample_factor\":3}"),
                    new Search("binary, 5x rescored", "binary", ",\"rescore\":{\"oversample_factor\":5}"))) {
                search.add(measure(client, s, data, truth, clients));
            }
            search.note(
                    "One shard, so k applies to the whole index. Wall-clock figures include HTTP (the JDK's client, see NodeHttp) and JSON on the same 2-core machine as the node.");
            restart = afterRestart(
                    node, new Search("binary, 3x rescored", "binary", ",\"rescore\":{\"oversample_factor\":3}"), data);
        }
        return List.of(ingest, search, restart);
    }

    /**
     * The first searches a restarted node answers: right after the restart, after a warmup call, and
     * after a warmup call and plain searches that carry no vector; then the same searches again on the
     * last node. The index's files stay in the page cache across a restart, so what differs is the
     * JVM's: code the JIT has not compiled yet.
     */
    private static ResultTable afterRestart(RealNode node, Search s, BenchData data) throws Exception {
        ResultTable table = new ResultTable(
                "The first searches after a node restart (" + s.label() + ", " + data.queries().length
                        + " queries, one client)",
                List.of("node", "warmup_s", "mean_ms", "first_100_mean_ms", "p50_ms", "p99_ms"));
        List<String> bodies = Arrays.stream(data.queries()).map(q -> body(s, q)).toList();
        String matchAll = "{\"size\":" + K + ",\"_source\":false,\"query\":{\"match_all\":{}}}";
        for (int before = 0; before < 3; before++) {
            node.restart();
            NodeHttp client = new NodeHttp(node.httpPort());
            client.call("GET", "/_cluster/health/" + s.index() + "?wait_for_status=green&timeout=120s", null);
            Map<String, Object> row = new LinkedHashMap<>();
            row.put(
                    "node",
                    switch (before) {
                        case 0 -> "restarted";
                        case 1 -> "restarted, then GET _plugins/compress/warmup/" + s.index();
                        default -> "restarted, then the warmup and " + WARMING_REQUESTS + " match_all searches";
                    });
            if (before > 0) {
                long start = System.nanoTime();
                client.call("GET", "/_plugins/compress/warmup/" + s.index(), null);
                row.put("warmup_s", (System.nanoTime() - start) / 1e9);
            }
            if (before == 2) {
                for (int i = 0; i < WARMING_REQUESTS; i++) {
                    client.call("POST", "/" + s.index() + "/_search", matchAll);
                }
            }
            row.putAll(firstSearches(client, s.index(), bodies));
            table.add(row);
        }
        Map<String, Object> again = new LinkedHashMap<>();
        again.put("node", "the last node, the same searches again");
        again.putAll(firstSearches(new NodeHttp(node.httpPort()), s.index(), bodies));
        table.add(again);
        table.note("One pass of the queries, each timed. The node restarts with the index's files still in the"
                + " page cache (a restart does not drop them), so the rows differ by what the JVM has compiled: a"
                + " node that has just started runs code interpreted until the JIT has seen it often enough. The"
                + " warmup call reads the vector files and runs its default number of searches on the index's own"
                + " vectors, inside the node: it compiles the vector search, not OpenSearch's handling of a REST"
                + " search request, which the match_all searches (no vectors) compile. warmup_s: the warmup call.");
        return table;
    }

    /** Every body searched once, in order, each timed. */
    private static Map<String, Object> firstSearches(NodeHttp client, String index, List<String> bodies)
            throws IOException {
        long[] nanos = new long[bodies.size()];
        for (int q = 0; q < nanos.length; q++) {
            long t = System.nanoTime();
            RestTiming.search(client, index, bodies.get(q));
            nanos[q] = System.nanoTime() - t;
        }
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("mean_ms", Arrays.stream(nanos).average().orElse(0) / 1e6);
        row.put("first_100_mean_ms", Arrays.stream(nanos).limit(100).average().orElse(0) / 1e6);
        row.put("p50_ms", RestTiming.percentile(nanos, 0.5));
        row.put("p99_ms", RestTiming.percentile(nanos, 0.99));
        return row;
    }

    private static String mapping(int dims, String encoding) {
        return "{\"dynamic\":false,\"_source\":{\"excludes\":[\"raw\"]},\"properties\":{\"v\":{\"type\":\"compressed_vector\",\"dimension\":"
                + dims
                + ",\"encoding\":\""
                + encoding
                + "\"}}}";
    }

    /** Documents per second: every document through {@code _bulk}, then a refresh. */
    private static double bulk(NodeHttp client, Target target, float[][] corpus) throws IOException {
        boolean viaPipeline = target.pipeline() != null;
        boolean truncate = target.mapping().contains("\"dimension\":128");
        long start = System.nanoTime();
        for (int from = 0; from < corpus.length; from += BULK) {
            StringBuilder body = new StringBuilder();
            for (int id = from; id < Math.min(corpus.length, from + BULK); id++) {
                body.append("{\"index\":{\"_id\":\"").append(id).append("\"}}\n{\"");
                float[] vector = truncate && viaPipeline == false ? truncated(corpus[id], 128) : corpus[id];
                body.append(viaPipeline ? "raw" : "v")
                        .append("\":")
                        .append(Arrays.toString(vector))
                        .append("}\n");
            }
            String path = "/" + target.index() + "/_bulk" + (viaPipeline ? "?pipeline=" + target.pipeline() : "");
            String response = client.call("POST", path, body.toString());
            if (response.contains("\"errors\":true")) {
                throw new IOException("bulk into " + target.index() + " had errors: "
                        + response.substring(0, Math.min(500, response.length())));
            }
        }
        client.call("POST", "/" + target.index() + "/_refresh", null);
        return corpus.length / ((System.nanoTime() - start) / 1e9);
    }

    /** The first {@code dims} values, L2-renormalised: what the {@code truncate_to} pipeline writes. */
    private static float[] truncated(float[] vector, int dims) {
        return org.apache.lucene.util.VectorUtil.l2normalize(Arrays.copyOf(vector, dims), false);
    }

    private static Map<String, Object> measure(NodeHttp client, Search s, BenchData data, int[][] truth, int clients)
            throws Exception {
        float[][] queries = data.queries();
        List<String> bodies = Arrays.stream(queries).map(q -> body(s, q)).toList();
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("search", s.label());
        row.putAll(RestTiming.oneClient(client, s.index(), bodies, truth));
        long[] concurrent = new long[queries.length];
        ExecutorService pool = Executors.newFixedThreadPool(clients);
        try {
            AtomicInteger next = new AtomicInteger();
            List<Future<?>> running = new ArrayList<>();
            long begin = System.nanoTime();
            for (int c = 0; c < clients; c++) {
                running.add(pool.submit(() -> {
                    for (int q; (q = next.getAndIncrement()) < queries.length; ) {
                        long t = System.nanoTime();
                        search(client, s, queries[q]);
                        concurrent[q] = System.nanoTime() - t;
                    }
                    return null;
                }));
            }
            for (Future<?> f : running) {
                f.get();
            }
            row.put("qps_" + clients + "_clients", queries.length / ((System.nanoTime() - begin) / 1e9));
        } finally {
            pool.shutdown();
        }
        row.put("p50_ms_" + clients + "_clients", RestTiming.percentile(concurrent, 0.5));
        row.put("p99_ms_" + clients + "_clients", RestTiming.percentile(concurrent, 0.99));
        return row;
    }

    private static int[] search(NodeHttp client, Search s, float[] query) throws IOException {
        return RestTiming.search(client, s.index(), body(s, query));
    }

    private static String body(Search s, float[] query) {
        return "{\"size\":" + K + ",\"_source\":false,\"query\":{\"compressed_knn\":{\"field\":\"v\",\"vector\":"
                + Arrays.toString(query) + ",\"k\":" + K + s.extra() + "}}}";
    }
}
