package dev.compress.bench;

import static dev.compress.bench.FormatComparison.LUCENE_FLOAT;
import static dev.compress.bench.FormatComparison.LUCENE_OSQ;
import static dev.compress.bench.FormatComparison.LUCENE_SQ7;
import static dev.compress.bench.FormatComparison.OURS_BINARY;

import dev.compress.bench.FormatComparison.SearchSpec;
import dev.compress.harness.BenchData;
import dev.compress.harness.RealNode;
import dev.compress.training.data.DataDirectory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * Our plugin beside the k-NN plugin on one real node, on the same vectors and through the same
 * REST client ({@link NodeHttp}): k-NN's {@code knn_vector} (Lucene engine, float32 HNSW) against
 * our {@code compressed_vector} (binary codes rescored with the stored floats, and float). Each
 * index's search parameter is swept until recall@10 reaches {@value #RECALL_LEVEL}, and the
 * indexes are compared there ({@link NodeKnnComparison}): QPS, p50 / p99, index and merge time,
 * bytes per document on disk, the bytes per vector a search reads for every candidate, and QPS
 * when the page cache holds a tenth of the float index.
 *
 * <p>The k-NN zip on Maven Central carries no native libraries: its {@code faiss} engine and its
 * Lucene {@code sq} encoder crash the node on their first search, so its 1-bit and 7-bit modes are
 * compared instead through the Lucene formats they wrap, in this JVM on the same vectors
 * ({@link FormatComparison}: Lucene's 1-bit OSQ and 7-bit scalar quantization against float32 and
 * ours), read at the same recall level: each format's cheapest budget reaching it in the sweep, then
 * those searches timed again in one interleaved pass, as the REST ones are.
 *
 * <p>Data: scifact with bge-small-en-v1.5 (5,183 x 384) and a synthetic 384-d set of {@code
 * -Dbench.knn.synthetic.docs} vectors (quick 100,000, full 1,000,000; 0 leaves it out), 500 queries.
 */
final class KnnSideBySideSection implements BenchSection {

    static final double RECALL_LEVEL = 0.95;

    @Override
    public String name() {
        return "knn";
    }

    @Override
    public List<ResultTable> run(BenchMode mode) throws Exception {
        List<BenchData> sets = sets(mode);
        List<ResultTable> tables = new ArrayList<>();
        Map<String, NodeKnnComparison.Outcome> outcomes = new LinkedHashMap<>();
        RestTiming.freePort("realnode.neighbours.http.port");
        RestTiming.freePort("realnode.neighbours.transport.port");
        System.setProperty(
                "realnode.workdir",
                BenchPaths.output().resolve("realnode").toAbsolutePath().toString());
        List<String> parts =
                List.of(System.getProperty("bench.knn.parts", "rest,inprocess").split(","));
        if (parts.contains("rest")) {
            List<String> settings = new ArrayList<>(KeptRestIndexes.nodeSettings());
            // a bulk load's segments as large as the heap allows: at a million vectors the default tenth flushes a
            // small segment every few minutes, and merging them rebuilds graphs again and again
            settings.add("indices.memory.index_buffer_size: 50%");
            try (RealNode node = RealNode.withPluginsBefore(
                    "knn-side-by-side",
                    List.of(RealNode.pluginZip("realnode.knn.zip")),
                    System.getProperty("bench.knn.node.heap", mode.full() ? "5g" : "1g"),
                    settings)) {
                KeptRestIndexes.shareWith(node);
                node.start();
                NodeKnnComparison comparison = new NodeKnnComparison(node);
                for (BenchData set : sets) {
                    // a tenth of scifact's float index is under a megabyte, less than the node's own files need
                    NodeKnnComparison.Outcome outcome =
                            comparison.run(set, set.judgments().isEmpty());
                    outcomes.put(set.name(), outcome);
                    tables.addAll(outcome.tables());
                }
            }
        }
        Map<String, Double> oursOverOsq = new LinkedHashMap<>();
        if (parts.contains("inprocess")) {
            for (BenchData set : sets) {
                tables.addAll(luceneFormats(set, mode, oursOverOsq));
            }
        }
        tables.add(0, targets(outcomes, oursOverOsq));
        return tables;
    }

    /** The plugin's targets against this run's ratios, one set at a time; a ratio not measured stays empty. */
    private static ResultTable targets(
            Map<String, NodeKnnComparison.Outcome> outcomes, Map<String, Double> oursOverOsq) {
        ResultTable table = new ResultTable(
                "Targets, from this run's tables below (ours: compressed_vector binary rescored)",
                List.of("data", "comparison", "target", "measured", "met", "bound_through_rest"));
        for (Map.Entry<String, NodeKnnComparison.Outcome> e : outcomes.entrySet()) {
            NodeKnnComparison.Outcome o = e.getValue();
            Map<String, Object> ours = o.atLevel().get(NodeKnnComparison.OURS_BINARY);
            Map<String, Object> knn = o.atLevel().get(NodeKnnComparison.KNN_FLOAT);
            Map<String, Object> rest = target(
                    e.getKey(),
                    "REST QPS over k-NN float32's at recall@10 >= " + RECALL_LEVEL + ", in RAM",
                    2,
                    RecallSweep.ratio(ours, knn, "qps_1_client"),
                    true);
            rest.put(
                    "bound_through_rest",
                    RecallSweep.ratio(o.atLevel().get(NodeKnnComparison.VECTOR_FLOOR), knn, "qps_1_client"));
            table.add(rest);
            if (o.limited().isEmpty() == false) {
                @SuppressWarnings("unchecked")
                Map<String, Object> limitedOurs =
                        (Map<String, Object>) o.limited().get(NodeKnnComparison.OURS_BINARY);
                @SuppressWarnings("unchecked")
                Map<String, Object> limitedKnn =
                        (Map<String, Object>) o.limited().get(NodeKnnComparison.KNN_FLOAT);
                target(
                        table,
                        e.getKey(),
                        "the same, page cache a tenth of the k-NN float32 index",
                        3,
                        RecallSweep.ratio(limitedOurs, limitedKnn, "qps_1_client"),
                        true);
            }
            target(
                    table,
                    e.getKey(),
                    "in-process QPS over Lucene 1-bit OSQ rescored's at recall@10 >= " + RECALL_LEVEL,
                    1.5,
                    oursOverOsq.getOrDefault(e.getKey(), Double.NaN),
                    true);
            target(
                    table,
                    e.getKey(),
                    "disk bytes per document over k-NN float32's",
                    1,
                    RecallSweep.ratio(
                            o.ingest().get(NodeKnnComparison.OURS_BINARY),
                            o.ingest().get(NodeKnnComparison.KNN_FLOAT),
                            "disk_bytes_per_doc"),
                    false);
        }
        table.note(
                "The equal-recall rows each ratio comes from are in the tables below; a recall level an index never reached leaves the ratio empty."
                        + " bound_through_rest: the REST ratio of a request of ours on an unmapped field ("
                        + NodeKnnComparison.VECTOR_FLOOR + ", timed in the same pass): it sends, parses and rewrites"
                        + " the vector and finds nothing, so no index of ours reaches a higher ratio through REST on"
                        + " this machine.");
        return table;
    }

    private static void target(
            ResultTable table, String data, String comparison, double target, double measured, boolean atLeast) {
        table.add(target(data, comparison, target, measured, atLeast));
    }

    /** The row of one target. */
    private static Map<String, Object> target(
            String data, String comparison, double target, double measured, boolean atLeast) {
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("data", data);
        row.put("comparison", comparison);
        row.put("target", (atLeast ? ">= " : "<= ") + target);
        row.put("measured", measured);
        row.put(
                "met",
                Double.isNaN(measured)
                        ? "not measured"
                        : (atLeast ? measured >= target : measured <= target) ? "yes" : "no");
        return row;
    }

    private static List<BenchData> sets(BenchMode mode) throws Exception {
        Path data = DataDirectory.resolve();
        List<BenchData> sets = new ArrayList<>();
        sets.add(BenchData.beir(
                "scifact bge-small-en-v1.5 (5,183 x 384, 300 test queries)",
                data.resolve("embeddings/scifact/bge-small-en-v1.5"),
                data.resolve("beir/scifact/qrels/test.tsv")));
        int synthetic = Integer.getInteger("bench.knn.synthetic.docs", mode.full() ? 1_000_000 : 100_000);
        if (synthetic > 0) {
            sets.add(BenchData.synthetic(synthetic, Integer.getInteger("bench.knn.synthetic.queries", 500), 384, 42));
        }
        return sets;
    }

    /**
     * The formats behind k-NN's {@code sq} encoder ({@code bits: 1}: Lucene's 1-bit OSQ, {@code bits:
     * 7}: its 7-bit scalar quantization), with Lucene float32 and ours, in this JVM: a sweep of
     * candidate budgets, then each read at the recall level.
     */
    private static List<ResultTable> luceneFormats(BenchData set, BenchMode mode, Map<String, Double> oursOverOsq)
            throws Exception {
        List<SearchSpec> searches = new ArrayList<>();
        // a million vectors need budgets far above a hundred thousand's for the same recall
        boolean large = set.corpus().length > 200_000;
        for (float f : large ? new float[] {5, 8, 12, 16, 24, 32, 48, 64, 96} : new float[] {1, 2, 3, 5, 8, 12, 16}) {
            searches.add(new SearchSpec(LUCENE_FLOAT, f, false));
        }
        for (float f : large ? new float[] {8, 12, 16, 24, 32, 48, 64, 96, 128} : new float[] {3, 5, 8, 12, 16, 24}) {
            searches.add(new SearchSpec(LUCENE_OSQ, f, true));
        }
        for (float f : large ? new float[] {5, 8, 12, 16, 24, 32, 48, 64, 96} : new float[] {1, 2, 3, 5, 8}) {
            searches.add(new SearchSpec(LUCENE_SQ7, f, false));
        }
        for (float f : large ? new float[] {8, 12, 16, 24, 32, 48, 64, 96, 128} : new float[] {3, 5, 8, 12, 16, 24}) {
            searches.add(new SearchSpec(OURS_BINARY, f, true));
        }
        List<String> compared = List.of(LUCENE_FLOAT, LUCENE_OSQ, LUCENE_SQ7, OURS_BINARY);
        FormatComparison.Comparison comparison = FormatComparison.run(
                set,
                searches,
                mode.threads(),
                sweepRows -> compared.stream()
                        .map(index ->
                                RecallSweep.firstReaching(sweepRows, r -> index.equals(r.get("index")), RECALL_LEVEL))
                        .filter(Objects::nonNull)
                        .map(SearchSpec::of)
                        .toList(),
                NodeKnnComparison.ROUNDS);
        List<Map<String, Object>> rows = comparison.rows();
        rows.removeIf(r -> r.containsKey("qps_1_thread") == false); // the exact (brute-force) line of judged sets
        ResultTable sweep = new ResultTable(
                set.name() + ": Lucene's formats in-process (what k-NN's sq encoder wraps), k = 10",
                List.of(
                        "index",
                        "candidates",
                        "rescore",
                        "recall@10",
                        "qps_1_thread",
                        "cpu_us_per_query",
                        "p50_ms",
                        "p99_ms",
                        "index_s",
                        "merge_s",
                        "disk_bytes_per_vector",
                        "graph_codes_bytes_per_vector",
                        "heap_bytes_per_vector"));
        rows.forEach(sweep::add);
        sweep.note(
                "One thread in this JVM, no REST: the same RescoringKnnQuery over each format (k x candidates from the graph, "
                        + "rescored with the stored floats where rescore is yes). graph_codes: the .vex graph and .veq / .vbc codes a search reads per candidate.");
        ResultTable level = new ResultTable(
                set.name() + ": Lucene's formats in-process at recall@10 >= " + RECALL_LEVEL
                        + " (smallest budget reaching it)",
                List.of(
                        "index",
                        "candidates",
                        "recall@10",
                        "qps_1_thread",
                        "cpu_us_per_query",
                        "p99_ms",
                        "ours_qps_ratio",
                        "ours_cpu_ratio"));
        Map<String, Object> ours = timedTogether(comparison, OURS_BINARY);
        for (String index : compared) {
            Map<String, Object> row = timedTogether(comparison, index);
            Map<String, Object> out = new LinkedHashMap<>();
            out.put("index", index + (index.equals(LUCENE_OSQ) || index.equals(OURS_BINARY) ? ", rescored" : ""));
            if (row == null) {
                out.put("candidates", "not reached");
            } else {
                out.put("candidates", row.get("candidates"));
                out.put("recall@10", row.get("recall@10"));
                out.put("qps_1_thread", row.get("qps_1_thread"));
                out.put("cpu_us_per_query", row.get("cpu_us_per_query"));
                out.put("p99_ms", row.get("p99_ms"));
                out.put("ours_qps_ratio", RecallSweep.ratio(ours, row, "qps_1_thread"));
                out.put("ours_cpu_ratio", RecallSweep.ratio(row, ours, "cpu_us_per_query"));
            }
            level.add(out);
            if (index.equals(LUCENE_OSQ)) {
                oursOverOsq.put(set.name(), RecallSweep.ratio(ours, row, "qps_1_thread"));
            }
        }
        level.note(String.format(
                Locale.ROOT,
                "ours_qps_ratio: our binary rescored's QPS over the row's; ours_cpu_ratio: the row's CPU time per query over ours. Both at each index's"
                        + " smallest budget reaching recall %.2f in the sweep, timed again together: blocks of %d queries to each index"
                        + " in turn, %d rounds, so that the machine's drift slows every index alike.",
                RECALL_LEVEL,
                InterleavedPass.BLOCK,
                NodeKnnComparison.ROUNDS));
        rows.forEach(r -> r.remove(FormatComparison.PER_QUERY_RECALL));
        return List.of(sweep, level);
    }

    /** The interleaved row of {@code index}'s equal-recall search; null when the sweep never reached the level. */
    private static Map<String, Object> timedTogether(FormatComparison.Comparison comparison, String index) {
        return comparison.interleaved().stream()
                .filter(r -> index.equals(r.get("index")))
                .findFirst()
                .orElse(null);
    }
}
