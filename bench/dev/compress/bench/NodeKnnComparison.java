package dev.compress.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.compress.harness.BenchData;
import dev.compress.harness.RealNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The REST half of the {@code knn} section: one data set indexed on one node into k-NN's {@code
 * knn_vector} (Lucene engine, float32) and our {@code compressed_vector} (binary and float), one
 * shard each, force-merged to one segment (not a compound file, so that its files can be sized by kind); each index's search parameter swept until recall@10
 * reaches the level; and, when asked, the binary and k-NN float indexes searched again with the
 * node's page cache held to a tenth of the k-NN float index ({@link MemoryCgroup} around the
 * running node).
 */
final class NodeKnnComparison {

    static final String KNN_FLOAT = "k-NN knn_vector, lucene float32";
    static final String OURS_BINARY = "ours compressed_vector, binary rescored";
    static final String OURS_FLOAT = "ours compressed_vector, float";

    private static final int K = 10;
    private static final int BULK = 500;
    /** The row of requests that search no vectors, timed beside the indexes. */
    private static final String FLOOR = "REST floor: match_all, size 10";
    /** Less than any request of ours costs: its vector sent, parsed and rewritten, and a shard that finds nothing. */
    static final String VECTOR_FLOOR = "REST floor with the vector: compressed_knn on an unmapped field";
    /** Timed rounds of the interleaved pass at equal recall. */
    static final int ROUNDS = Integer.getInteger("bench.knn.rounds", 5);

    private static final String HNSW = "\"m\":16,\"ef_construction\":100";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final List<Number> BEAMS = List.of(10, 16, 24, 32, 48, 64, 96, 128, 192, 256, 384, 512, 768, 1024);
    private static final List<Number> OVERSAMPLE = List.of(1, 2, 3, 4, 5, 6, 8, 10, 12, 16, 20, 24, 32, 48, 64, 100);

    /**
     * An index on the node: its name, index settings beyond shards and replicas, the mapping of
     * field {@code v}, the search parameter swept, and the file extensions a search reads for every
     * candidate it scores (graph and codes or vectors).
     */
    private record Kind(
            String label,
            String index,
            String settings,
            String field,
            String parameter,
            List<Number> grid,
            List<String> hotExtensions) {

        String body(float[] vector, Number p) {
            String v = Arrays.toString(vector);
            String query = label.equals(KNN_FLOAT)
                    ? "{\"knn\":{\"v\":{\"vector\":" + v + ",\"k\":" + K + ",\"method_parameters\":{\"ef_search\":" + p
                            + "}}}}"
                    : "{\"compressed_knn\":{\"field\":\"v\",\"vector\":" + v + ",\"k\":" + K
                            + (label.equals(OURS_BINARY)
                                    ? ",\"rescore\":{\"oversample_factor\":" + p + "}"
                                    : ",\"num_candidates\":" + p)
                            + "}}";
            return "{\"size\":" + K + ",\"_source\":false,\"query\":" + query + "}";
        }
    }

    /** The tables of one data set, and the figures the section's target table reads. */
    record Outcome(
            List<ResultTable> tables,
            Map<String, Map<String, Object>> atLevel,
            Map<String, Map<String, Object>> ingest,
            Map<String, Object> limited) {}

    private final RealNode node;
    private final NodeHttp client;
    private final KeptRestIndexes kept;
    /** Indexes restored from a kept snapshot rather than built by this run. */
    private final List<String> restored = new ArrayList<>();

    /** A comparison on a started node prepared for {@link KeptRestIndexes}. */
    NodeKnnComparison(RealNode node) throws IOException {
        this.node = node;
        this.client = new NodeHttp(node.httpPort());
        this.kept = KeptRestIndexes.on(client);
    }

    Outcome run(BenchData set, boolean limitCache) throws Exception {
        restored.clear();
        int dims = set.corpus()[0].length;
        String slug = set.judgments().isEmpty() ? "synthetic" : "scifact";
        List<Kind> kinds = List.of(
                new Kind(
                        KNN_FLOAT,
                        slug + "-knn-float32",
                        ",\"index.knn\":true",
                        "{\"type\":\"knn_vector\",\"dimension\":" + dims
                                + ",\"method\":{\"name\":\"hnsw\",\"engine\":\"lucene\",\"space_type\":\"cosinesimil\",\"parameters\":{"
                                + HNSW + "}}}",
                        "ef_search",
                        BEAMS,
                        List.of("vec", "vex")),
                new Kind(
                        OURS_BINARY,
                        slug + "-ours-binary",
                        ",\"index.compress\":true",
                        ours(dims, "binary"),
                        "oversample_factor",
                        OVERSAMPLE,
                        List.of("vbc", "vex")),
                new Kind(
                        OURS_FLOAT,
                        slug + "-ours-float",
                        ",\"index.compress\":true",
                        ours(dims, "float"),
                        "num_candidates",
                        BEAMS,
                        List.of("vec", "vex")));
        int[][] truth = set.exactTopK(K);
        ResultTable indexing = new ResultTable(
                set.name() + ": through REST, both plugins on one node, one shard, force-merged to one segment",
                List.of(
                        "index",
                        "index_s",
                        "merge_s",
                        "disk_bytes_per_doc",
                        "vector_files_bytes_per_doc",
                        "stored_fields_bytes_per_doc",
                        "search_ram_bytes_per_vector",
                        "files_bytes_per_doc"));
        ResultTable sweep = new ResultTable(
                set.name() + ": through REST, k = 10, one client, each parameter swept until recall@10 >= "
                        + KnnSideBySideSection.RECALL_LEVEL,
                List.of("index", "parameter", "recall@10", "qps_1_client", "p50_ms", "p99_ms"));
        ResultTable level = new ResultTable(
                set.name() + ": through REST at recall@10 >= " + KnnSideBySideSection.RECALL_LEVEL
                        + " (smallest parameter reaching it), the indexes timed interleaved",
                List.of(
                        "index",
                        "parameter",
                        "recall@10",
                        "qps_1_client",
                        "p50_ms",
                        "p99_ms",
                        "qps_ratio_to_knn_float32",
                        "shard_search_ms",
                        "shard_speed_ratio_to_knn_float32"));
        Map<String, Map<String, Object>> atLevel = new LinkedHashMap<>();
        Map<String, Map<String, Object>> ingest = new LinkedHashMap<>();
        for (Kind kind : kinds) {
            ingest.put(kind.label(), ingest(kind, set.corpus()));
            indexing.add(ingest.get(kind.label()));
            // an untimed pass first: the node's first searches of an index (and of a query type) run colder code
            RestTiming.oneClient(
                    client,
                    kind.index(),
                    bodies(kind, set.queries(), kind.grid().get(0)),
                    truth);
            List<Map<String, Object>> rows = new ArrayList<>();
            Map<String, Object> reached = RecallSweep.untilReached(
                    kind.grid(),
                    KnnSideBySideSection.RECALL_LEVEL,
                    p -> {
                        Map<String, Object> row = new LinkedHashMap<>();
                        row.put("index", kind.label());
                        row.put("parameter", kind.parameter() + " " + p);
                        row.put("value", p);
                        row.putAll(RestTiming.oneClient(client, kind.index(), bodies(kind, set.queries(), p), truth));
                        System.out.println(row);
                        return row;
                    },
                    rows);
            rows.forEach(sweep::add);
            atLevel.put(kind.label(), reached);
        }
        List<Map<String, Object>> floors = timeInterleaved(kinds, set.queries(), truth, atLevel);
        Map<String, Object> knnFloat = atLevel.get(KNN_FLOAT);
        for (Kind kind : kinds) {
            Map<String, Object> row = atLevel.get(kind.label());
            Map<String, Object> out = new LinkedHashMap<>();
            out.put("index", kind.label());
            if (row == null) {
                out.put(
                        "parameter",
                        "not reached (largest " + kind.parameter() + " "
                                + kind.grid().get(kind.grid().size() - 1) + ")");
            } else {
                out.putAll(row);
                out.put("qps_ratio_to_knn_float32", RecallSweep.ratio(row, knnFloat, "qps_1_client"));
                out.put("shard_speed_ratio_to_knn_float32", RecallSweep.ratio(knnFloat, row, "shard_search_ms"));
            }
            level.add(out);
        }
        for (Map<String, Object> floor : floors) {
            floor.put("qps_ratio_to_knn_float32", RecallSweep.ratio(floor, knnFloat, "qps_1_client"));
            floor.put("shard_speed_ratio_to_knn_float32", RecallSweep.ratio(knnFloat, floor, "shard_search_ms"));
            level.add(floor);
            atLevel.put((String) floor.get("index"), floor);
        }
        level.note("Each index at the parameter its sweep reached the level with, timed again in one pass that sends"
                + " the queries in blocks of " + InterleavedPass.BLOCK + " to each index in turn (the order rotating), "
                + ROUNDS
                + " rounds after an untimed one: this machine's speed drifts by more than the indexes differ, and one"
                + " index timed after another lets the drift decide the ratio. qps_1_client: requests over the time"
                + " they took. " + FLOOR + ": requests that search no vectors, timed in the same pass: what every"
                + " request costs whatever it searches, so its ratio bounds any index's ratio through REST here. "
                + VECTOR_FLOOR + ": ours binary's request on a field the index does not map (ignore_unmapped), timed"
                + " in the same pass: the query vector is sent, parsed and rewritten, and the shard finds nothing, so"
                + " it costs less than any request of ours and its ratio bounds ours binary's ratio through REST here"
                + " (its shard time is not profiled: the profile of a query that matches nothing says nothing)."
                + " shard_search_ms: the shard's own search time per request as the profile API reports it (rewrite,"
                + " where a Lucene k-NN query searches, query and collectors), from one more pass of the same bodies"
                + " with profile on; shard_speed_ratio_to_knn_float32: k-NN float32's shard_search_ms over the row's,"
                + " the indexes compared without the request's fixed cost.");
        indexing.note("index_s: every document through _bulk (bulks of " + BULK
                + ", one client) and a refresh; merge_s: force-merge to one segment"
                + (restored.isEmpty()
                        ? ""
                        : " (" + String.join("; ", restored)
                                + ": restored from snapshots kept with -Dbench.index.dir, so the seconds of the earlier run that built them)")
                + ". Disk: the shard's store "
                + "(_stats/store) over its documents; vector files: .vec/.vex/.vem and our .vbc/.vbf/.vbm; stored fields: .fdt/.fdx/.fdm, "
                + "where _source lives. search_ram: the files a graph walk reads for every candidate it scores (k-NN float32 and ours float: "
                + ".vex graph + .vec floats; ours binary: .vex graph + .vbc codes, the packed floats of .vbf read only for the k x oversample rescored), "
                + "which must sit in the page cache to search at in-RAM speed; the node's heap is not counted.");
        List<ResultTable> tables = new ArrayList<>(List.of(indexing, sweep, level));
        Map<String, Object> limited = new LinkedHashMap<>();
        if (limitCache) {
            long budget = (long) ((Number) ingest.get(KNN_FLOAT).get("store_bytes")).doubleValue() / 10;
            tables.add(limitedCache(set, kinds, atLevel, truth, budget, limited));
        }
        for (Kind kind : kinds) {
            try {
                client.call("DELETE", "/" + kind.index(), null); // the next set's searches get the page cache
            } catch (IOException e) {
                System.out.println(
                        "could not delete " + kind.index() + " (the node may have stopped): " + e.getMessage());
            }
        }
        return new Outcome(tables, atLevel, ingest, limited);
    }

    private static String ours(int dims, String encoding) {
        return "{\"type\":\"compressed_vector\",\"dimension\":" + dims + ",\"encoding\":\"" + encoding
                + "\",\"similarity\":\"cosine\",\"hnsw\":{" + HNSW + "}}";
    }

    /**
     * Replaces each reached row of {@code atLevel} with its index timed at the same parameter in one
     * interleaved pass of every index that reached the level ({@link RestTiming#interleaved}), with a
     * {@code match_all} request on the first index and ours binary's request on an unmapped field
     * ({@link #VECTOR_FLOOR}) in the same pass, and each row's shard search time ({@link
     * RestTiming#shardSearchMillis}, but for the second) after it; returns the rows of those two requests.
     */
    private List<Map<String, Object>> timeInterleaved(
            List<Kind> kinds, float[][] queries, int[][] truth, Map<String, Map<String, Object>> atLevel)
            throws IOException {
        List<Kind> reached =
                kinds.stream().filter(k -> atLevel.get(k.label()) != null).toList();
        List<String> indexes = new ArrayList<>(reached.stream().map(Kind::index).toList());
        indexes.add(kinds.get(0).index());
        List<List<String>> bodies = new ArrayList<>(reached.stream()
                .map(k -> bodies(k, queries, (Number) atLevel.get(k.label()).get("value")))
                .toList());
        bodies.add(Collections.nCopies(
                queries.length, "{\"size\":" + K + ",\"_source\":false,\"query\":{\"match_all\":{}}}"));
        Kind ours = kinds.stream()
                .filter(k -> k.label().equals(OURS_BINARY))
                .findFirst()
                .orElseThrow();
        indexes.add(ours.index());
        bodies.add(
                Arrays.stream(queries).map(NodeKnnComparison::vectorFloorBody).toList());
        List<Map<String, Object>> timed = RestTiming.interleaved(client, indexes, bodies, truth, ROUNDS);
        for (int i = 0; i < reached.size(); i++) {
            Map<String, Object> swept = atLevel.get(reached.get(i).label());
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("index", swept.get("index"));
            row.put("parameter", swept.get("parameter"));
            row.put("value", swept.get("value"));
            row.putAll(timed.get(i));
            row.put("shard_search_ms", RestTiming.shardSearchMillis(client, indexes.get(i), bodies.get(i)));
            System.out.println(row);
            atLevel.put(reached.get(i).label(), row);
        }
        List<Map<String, Object>> floors = new ArrayList<>();
        for (String label : List.of(FLOOR, VECTOR_FLOOR)) {
            int i = reached.size() + floors.size();
            Map<String, Object> floor = new LinkedHashMap<>();
            floor.put("index", label);
            floor.putAll(timed.get(i));
            if (label.equals(FLOOR)) {
                floor.put("shard_search_ms", RestTiming.shardSearchMillis(client, indexes.get(i), bodies.get(i)));
            }
            floor.remove("recall@10");
            floors.add(floor);
        }
        return floors;
    }

    /** {@link #VECTOR_FLOOR}'s request for query vector {@code q}. */
    private static String vectorFloorBody(float[] q) {
        return "{\"size\":" + K + ",\"_source\":false,\"query\":{\"compressed_knn\":{\"field\":\"unmapped\","
                + "\"vector\":" + Arrays.toString(q) + ",\"k\":" + K + ",\"ignore_unmapped\":true}}}";
    }

    private static List<String> bodies(Kind kind, float[][] queries, Number p) {
        return Arrays.stream(queries).map(q -> kind.body(q, p)).toList();
    }

    /**
     * Creates, fills and force-merges one index, or restores it where it was kept ({@link
     * KeptRestIndexes}), and sizes it; the row of the indexing table.
     */
    private Map<String, Object> ingest(Kind kind, float[][] corpus) throws Exception {
        double[] seconds = kept.restore(kind.index(), corpus.length);
        if (seconds == null) {
            seconds = build(kind, corpus);
            kept.keep(kind.index(), corpus.length, seconds);
        } else {
            restored.add(kind.label());
        }
        double indexSeconds = seconds[0];
        double mergeSeconds = seconds[1];
        // a shard's store size is cached for index.store.stats_refresh_interval (10 s): wait it out
        Thread.sleep(11_000);
        JsonNode stats = JSON.readTree(client.call("GET", "/" + kind.index() + "/_stats/store,docs", null))
                .at("/_all/primaries");
        long docs = stats.at("/docs/count").asLong();
        double store = stats.at("/store/size_in_bytes").asDouble();
        Map<String, Long> files = bytesByExtension(shardDirectory(kind.index()));
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("index", kind.label());
        row.put("docs", docs);
        row.put("index_s", indexSeconds);
        row.put("merge_s", mergeSeconds);
        row.put("store_bytes", store);
        row.put("disk_bytes_per_doc", store / docs);
        row.put("vector_files_bytes_per_doc", sum(files, e -> e.startsWith("v")) / (double) docs);
        row.put("stored_fields_bytes_per_doc", sum(files, e -> e.startsWith("fd")) / (double) docs);
        row.put("search_ram_bytes_per_vector", sum(files, kind.hotExtensions()::contains) / (double) docs);
        StringBuilder perFile = new StringBuilder();
        files.forEach((ext, bytes) -> {
            if (bytes / (double) docs >= 0.5) {
                perFile.append(perFile.isEmpty() ? "" : ", ")
                        .append(String.format(Locale.ROOT, "%s %.0f", ext, bytes / (double) docs));
            }
        });
        row.put("files_bytes_per_doc", perFile.toString());
        System.out.println(row);
        return row;
    }

    /**
     * Creates {@code kind}'s index, fills it through {@code _bulk} and force-merges it; returns the
     * seconds of both. Refresh is off and the translog may grow large, as a bulk load is set up, so
     * that the node's indexing buffer decides when a segment is written.
     */
    private double[] build(Kind kind, float[][] corpus) throws IOException {
        client.call(
                "PUT",
                "/" + kind.index(),
                "{\"settings\":{\"number_of_shards\":1,\"number_of_replicas\":0,\"refresh_interval\":\"-1\",\"index.compound_format\":false,"
                        + "\"index.translog.flush_threshold_size\":\"16gb\""
                        + kind.settings() + "},\"mappings\":{\"properties\":{\"v\":" + kind.field() + "}}}");
        long start = System.nanoTime();
        for (int from = 0; from < corpus.length; from += BULK) {
            StringBuilder body = new StringBuilder();
            for (int id = from; id < Math.min(corpus.length, from + BULK); id++) {
                body.append("{\"index\":{\"_id\":\"")
                        .append(id)
                        .append("\"}}\n{\"v\":")
                        .append(Arrays.toString(corpus[id]))
                        .append("}\n");
            }
            String response = client.call("POST", "/" + kind.index() + "/_bulk", body.toString());
            if (response.contains("\"errors\":true")) {
                throw new IOException("bulk into " + kind.index() + " had errors: "
                        + response.substring(0, Math.min(500, response.length())));
            }
        }
        client.call("POST", "/" + kind.index() + "/_refresh", null);
        double indexSeconds = (System.nanoTime() - start) / 1e9;
        long mergeStart = System.nanoTime();
        // the merged segment's graph starts from the largest segment's and takes in the others' vectors: slow at a
        // million vectors, hence the long timeout
        client.call("POST", "/" + kind.index() + "/_forcemerge?max_num_segments=1", null, Duration.ofHours(4));
        client.call("POST", "/" + kind.index() + "/_refresh", null);
        double mergeSeconds = (System.nanoTime() - mergeStart) / 1e9;
        return new double[] {indexSeconds, mergeSeconds};
    }

    /**
     * The k-NN float and our binary index searched at their equal-recall parameter while the node's
     * page cache may hold {@code budget} bytes ({@link #searchLimited}); the timed pass follows a
     * warm-up pass that brings back what the searches read most.
     */
    private ResultTable limitedCache(
            BenchData set,
            List<Kind> kinds,
            Map<String, Map<String, Object>> atLevel,
            int[][] truth,
            long budget,
            Map<String, Object> limited)
            throws Exception {
        ResultTable table = new ResultTable(
                set.name() + ": through REST, the node's page cache limited to a tenth of the k-NN float32 index ("
                        + String.format(Locale.ROOT, "%.1f MB", budget / 1e6)
                        + "), at the in-RAM equal-recall parameter",
                List.of(
                        "index",
                        "parameter",
                        "recall@10",
                        "qps_1_client",
                        "p50_ms",
                        "p99_ms",
                        "qps_ratio_to_knn_float32",
                        "index_resident_mb",
                        "index_mb"));
        int queries = limitedQueries(set);
        float[][] searched = Arrays.copyOf(set.queries(), queries);
        int[][] searchedTruth = Arrays.copyOf(truth, queries);
        Map<String, Object> knnRow = null;
        for (Kind kind : kinds) {
            Map<String, Object> reached = atLevel.get(kind.label());
            if (kind.label().equals(OURS_FLOAT) || reached == null) {
                continue;
            }
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("index", kind.label());
            row.put("parameter", reached.get("parameter"));
            try {
                row.putAll(searchLimited(kind, (Number) reached.get("value"), searched, searchedTruth, budget));
            } catch (IOException | IllegalStateException e) {
                table.note("Not measured for " + kind.label() + ": " + e.getMessage());
                continue;
            }
            row.put("index_resident_mb", MemorySection.residentBytes(shardDirectory(kind.index())) / 1e6);
            row.put(
                    "index_mb",
                    MemorySection.files(shardDirectory(kind.index())).stream()
                                    .mapToLong(NodeKnnComparison::size)
                                    .sum()
                            / 1e6);
            if (kind.label().equals(KNN_FLOAT)) {
                knnRow = row;
            }
            row.put("qps_ratio_to_knn_float32", RecallSweep.ratio(row, knnRow, "qps_1_client"));
            limited.put(kind.label(), row);
            table.add(row);
            System.out.println(row);
        }
        table.note(
                "The running node, warmed by the searches before, is moved into a memory cgroup; the index is closed (the node maps"
                        + " its files, and mapped pages stay in the page cache), its files are dropped from the page cache (dd iflag=nocache), the"
                        + " cgroup's limit becomes its usage then (what the node charges from the move on) plus the budget, and the index is reopened;"
                        + " then one warm-up pass and one timed pass of the first " + queries
                        + " queries run. index_resident_mb: the shard's pages in the page cache"
                        + " afterwards (fincore).");
        return table;
    }

    /**
     * Queries of each pass with the page cache limited: 500, or 100 above 200,000 vectors, where a
     * search that reads most of its vectors from disk can take a second and the pass runs twice per
     * index.
     */
    private static int limitedQueries(BenchData set) {
        return Math.min(
                set.queries().length,
                Integer.getInteger("bench.knn.limited.queries", set.corpus().length > 200_000 ? 100 : 500));
    }

    /**
     * One index searched with the node in a memory cgroup. The index is closed first: the node maps
     * its files, and the kernel does not drop mapped pages, so only a closed index's files leave the
     * page cache; reopened inside the cgroup, every page the node reads of it is charged there.
     */
    private Map<String, Object> searchLimited(Kind kind, Number p, float[][] queries, int[][] truth, long budget)
            throws Exception {
        long pid = node.pid();
        Path shard = shardDirectory(kind.index());
        try (MemoryCgroup cgroup = MemoryCgroup.create(
                "compress-knn-bench-" + ProcessHandle.current().pid())) {
            cgroup.adopt(pid);
            try {
                client.call("POST", "/" + kind.index() + "/_close", null);
                MemorySection.evictFromPageCache(shard);
                cgroup.limit(cgroup.usageBytes() + budget);
                client.call("POST", "/" + kind.index() + "/_open", null);
                client.call("GET", "/_cluster/health/" + kind.index() + "?wait_for_status=green&timeout=120s", null);
                return RestTiming.oneClient(client, kind.index(), bodies(kind, queries, p), truth);
            } finally {
                cgroup.release(pid);
            }
        }
    }

    private Path shardDirectory(String index) throws IOException {
        String uuid = JSON.readTree(client.call("GET", "/" + index + "/_settings", null))
                .at("/" + index + "/settings/index/uuid")
                .asText();
        return node.shardIndexDirectories(uuid).get(0);
    }

    /**
     * Bytes of a shard's files by extension; a compound segment (.cfs, which OpenSearch writes for a
     * segment flushed whole, such as scifact's) counted by the files inside it ({@link CompoundEntries}).
     */
    private static Map<String, Long> bytesByExtension(Path dir) throws IOException {
        Map<String, Long> bytes = new TreeMap<>();
        for (Path file : MemorySection.files(dir)) {
            String name = file.getFileName().toString();
            if (name.endsWith(".cfs")) {
                continue; // counted through its entries
            }
            if (name.endsWith(".cfe")) {
                CompoundEntries.lengths(file)
                        .forEach((entry, length) -> bytes.merge(extension(entry), length, Long::sum));
                continue;
            }
            bytes.merge(extension(name), Files.size(file), Long::sum);
        }
        return bytes;
    }

    private static String extension(String name) {
        int dot = name.lastIndexOf('.');
        return dot < 0 ? name : name.substring(dot + 1);
    }

    private static long sum(Map<String, Long> bytes, java.util.function.Predicate<String> extension) {
        return bytes.entrySet().stream()
                .filter(e -> extension.test(e.getKey()))
                .mapToLong(Map.Entry::getValue)
                .sum();
    }

    private static long size(Path file) {
        try {
            return Files.size(file);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
