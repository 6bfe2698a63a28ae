package dev.compress.bench;

import static dev.compress.bench.FormatComparison.LUCENE_FLOAT;
import static dev.compress.bench.FormatComparison.LUCENE_OSQ;
import static dev.compress.bench.FormatComparison.OURS_BINARY;
import static dev.compress.bench.FormatComparison.OURS_CODES_ONLY;

import dev.compress.bench.FormatComparison.SearchSpec;
import dev.compress.harness.BenchData;
import dev.compress.training.data.DataDirectory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Lucene float32 HNSW, Lucene's 1-bit OSQ and our binary format side by side on the same vectors:
 * recall, nDCG where judged, QPS and latency on one thread and on several, index and merge time,
 * bytes per vector on disk, in the graph + codes that must stay in RAM, and in the heap. Each data
 * set sweeps the candidate budget, and a second table reads the sweep at equal recall.
 */
final class CodecSection implements BenchSection {

    /** Recall levels at which formats are compared (best QPS among the budgets that reach the level). */
    private static final double[] RECALL_LEVELS = {0.80, 0.90, 0.95};

    private static final List<String> COLUMNS = List.of(
            "index",
            "candidates",
            "rescore",
            "recall@10",
            "ndcg@10",
            "ndcg_ratio_to_exact",
            "cpu_us_per_query",
            "cpu_speedup_vs_float32_5x",
            "qps_1_thread",
            "qps_ratio_to_float32_5x",
            "p50_ms",
            "p99_ms",
            "qps_threads",
            "visited_per_query",
            "index_s",
            "merge_s",
            "disk_bytes_per_vector",
            "graph_codes_bytes_per_vector",
            "heap_bytes_per_vector");

    @Override
    public String name() {
        return "codec";
    }

    static List<SearchSpec> sweep() {
        List<SearchSpec> searches = new ArrayList<>();
        // budgets up to 16x, so that every format's sweep reaches the recall levels read out below
        for (float f : new float[] {1, 2, 3, 5, 8, 12, 16}) {
            searches.add(new SearchSpec(LUCENE_FLOAT, f, false));
        }
        for (float f : new float[] {3, 5, 8, 12, 16}) {
            searches.add(new SearchSpec(LUCENE_OSQ, f, true));
        }
        for (float f : new float[] {3, 5, 8, 12, 16, 24}) {
            searches.add(new SearchSpec(OURS_BINARY, f, true));
        }
        searches.add(new SearchSpec(OURS_BINARY, 5, false));
        searches.add(new SearchSpec(OURS_CODES_ONLY, 5, true));
        searches.add(new SearchSpec(OURS_CODES_ONLY, 5, false));
        return searches;
    }

    /** Short names for {@code -Dbench.synthetic.indexes} (and the memory section's indexes). */
    static final Map<String, String> INDEX_KEYS =
            Map.of("float32", LUCENE_FLOAT, "osq", LUCENE_OSQ, "binary", OURS_BINARY, "codes-only", OURS_CODES_ONLY);

    /**
     * The sweep on the synthetic set, limited to the indexes {@code -Dbench.synthetic.indexes} names
     * (e.g. {@code float32,binary}): at a million vectors each index takes tens of minutes to build.
     */
    private static List<SearchSpec> syntheticSweep() {
        String only = System.getProperty("bench.synthetic.indexes");
        if (only == null) {
            return sweep();
        }
        List<String> names = new ArrayList<>();
        for (String key : only.split(",")) {
            String name = INDEX_KEYS.get(key.trim());
            if (name == null) {
                throw new IllegalArgumentException(
                        "bench.synthetic.indexes: unknown index [" + key + "]; known: " + INDEX_KEYS.keySet());
            }
            names.add(name);
        }
        return sweep().stream().filter(s -> names.contains(s.index())).toList();
    }

    /** Size of the synthetic set ({@code -Dbench.synthetic.docs}; 0 leaves it out). */
    static int syntheticDocs(BenchMode mode) {
        return Integer.getInteger("bench.synthetic.docs", mode.full() ? 100_000 : 20_000);
    }

    /**
     * The synthetic set: {@code -Dbench.synthetic.docs} x {@code -Dbench.synthetic.dims} (default 384,
     * the size of the embeddings under {@code shared/data}), {@code -Dbench.synthetic.queries}.
     */
    static BenchData syntheticSet(BenchMode mode) {
        return BenchData.synthetic(
                syntheticDocs(mode),
                Integer.getInteger("bench.synthetic.queries", 1_000),
                Integer.getInteger("bench.synthetic.dims", 384),
                42);
    }

    @Override
    public List<ResultTable> run(BenchMode mode) throws Exception {
        Path data = DataDirectory.resolve();
        List<BenchData> sets = new ArrayList<>();
        sets.add(BenchData.beir(
                "scifact bge-small-en-v1.5 (5,183 x 384, 300 test queries)",
                data.resolve("embeddings/scifact/bge-small-en-v1.5"),
                data.resolve("beir/scifact/qrels/test.tsv")));
        if (syntheticDocs(mode) > 0) {
            sets.add(syntheticSet(mode));
        }
        List<ResultTable> tables = new ArrayList<>();
        for (BenchData set : sets) {
            List<SearchSpec> searches = set.judgments().isEmpty() ? syntheticSweep() : sweep();
            List<Map<String, Object>> rows = FormatComparison.run(set, searches, mode.threads());
            // absent when -Dbench.synthetic.indexes leaves float32 out (e.g. to build one index per run)
            Map<String, Object> float5x = rows.stream()
                    .filter(r -> LUCENE_FLOAT.equals(r.get("index")) && "5x".equals(r.get("candidates")))
                    .findFirst()
                    .orElse(null);
            ResultTable table = new ResultTable(set.name() + ", k = 10", COLUMNS);
            for (Map<String, Object> row : rows) {
                if (row.containsKey("qps_1_thread")) {
                    if (float5x != null) {
                        row.put(
                                "qps_ratio_to_float32_5x",
                                (Double) row.get("qps_1_thread") / (Double) float5x.get("qps_1_thread"));
                        row.put(
                                "cpu_speedup_vs_float32_5x",
                                (Double) float5x.get("cpu_us_per_query") / (Double) row.get("cpu_us_per_query"));
                    }
                    row.put("qps_threads", row.get("qps_" + mode.threads() + "_threads"));
                }
                table.add(row);
            }
            table.note(
                    "cpu_us_per_query: CPU time of the one searching thread per query (steadier than wall time on a loaded machine). qps_threads: "
                            + mode.threads()
                            + " threads sharing the query list. Graph + codes: the files a search touches per candidate (.vex graph, .veq / .vbc codes); "
                            + "visited_per_query: graph nodes the walk scores per query. Disk: every vector file. Heap: the open vector readers' own objects.");
            tables.add(table);
            tables.add(equalRecall(set.name(), rows));
            tables.add(againstOsq(set.name(), rows));
            rows.forEach(row -> row.remove(FormatComparison.PER_QUERY_RECALL));
        }
        return tables;
    }

    /**
     * Our rescored recall against Lucene OSQ's at each budget both ran, as the mean per-query
     * difference with a 95% interval (same queries, so the difference is paired): on a thousand
     * queries, gaps of a few thousandths are within sampling noise, and this says which are.
     */
    static ResultTable againstOsq(String setName, List<Map<String, Object>> rows) {
        ResultTable table = new ResultTable(
                setName + ": ours rescored against Lucene 1-bit OSQ rescored, same budget",
                List.of(
                        "candidates",
                        "recall@10 ours",
                        "recall@10 OSQ",
                        "difference",
                        "95% interval low",
                        "95% interval high"));
        for (Map<String, Object> ours : rows) {
            if (OURS_BINARY.equals(ours.get("index")) && "yes".equals(ours.get("rescore"))) {
                rows.stream()
                        .filter(r -> LUCENE_OSQ.equals(r.get("index"))
                                && ours.get("candidates").equals(r.get("candidates")))
                        .findFirst()
                        .ifPresent(osq -> {
                            double[] difference =
                                    pairedDifference((double[]) ours.get(FormatComparison.PER_QUERY_RECALL), (double[])
                                            osq.get(FormatComparison.PER_QUERY_RECALL));
                            Map<String, Object> out = new LinkedHashMap<>();
                            out.put("candidates", ours.get("candidates"));
                            out.put("recall@10 ours", ours.get("recall@10"));
                            out.put("recall@10 OSQ", osq.get("recall@10"));
                            out.put("difference", difference[0]);
                            out.put("95% interval low", difference[0] - difference[1]);
                            out.put("95% interval high", difference[0] + difference[1]);
                            table.add(out);
                        });
            }
        }
        return table;
    }

    /** Mean of {@code a[q] - b[q]} and the half-width of its 95% interval (normal approximation). */
    static double[] pairedDifference(double[] a, double[] b) {
        double mean = 0, squares = 0;
        for (int q = 0; q < a.length; q++) {
            mean += (a[q] - b[q]) / a.length;
        }
        for (int q = 0; q < a.length; q++) {
            squares += (a[q] - b[q] - mean) * (a[q] - b[q] - mean);
        }
        return new double[] {mean, 1.96 * Math.sqrt(squares / (a.length - 1) / a.length)};
    }

    /**
     * For each recall level: the smallest budget of each index that reaches it (fewest graph nodes
     * visited, so the choice does not depend on timing noise), and its cost against float32's.
     */
    static ResultTable equalRecall(String setName, List<Map<String, Object>> rows) {
        ResultTable table = new ResultTable(
                setName + ": at equal recall (smallest budget reaching the level)",
                List.of(
                        "recall level",
                        "index",
                        "candidates",
                        "recall@10",
                        "cpu_us_per_query",
                        "cpu_speedup_vs_float32",
                        "qps_1_thread",
                        "qps_ratio_to_float32"));
        for (double level : RECALL_LEVELS) {
            Map<String, Map<String, Object>> smallest = new LinkedHashMap<>();
            for (Map<String, Object> row : rows) {
                if (row.containsKey("qps_1_thread") && (Double) row.get("recall@10") >= level) {
                    String key = row.get("index") + (row.get("rescore").equals("yes") ? " rescored" : "");
                    Map<String, Object> current = smallest.get(key);
                    if (current == null
                            || (Double) row.get("visited_per_query") < (Double) current.get("visited_per_query")) {
                        smallest.put(key, row);
                    }
                }
            }
            Map<String, Object> floatRow = smallest.get(LUCENE_FLOAT);
            for (Map.Entry<String, Map<String, Object>> e : smallest.entrySet()) {
                Map<String, Object> row = e.getValue();
                Map<String, Object> out = new LinkedHashMap<>();
                out.put("recall level", level);
                out.put("index", e.getKey());
                out.put("candidates", row.get("candidates"));
                out.put("recall@10", row.get("recall@10"));
                out.put("cpu_us_per_query", row.get("cpu_us_per_query"));
                out.put("qps_1_thread", row.get("qps_1_thread"));
                if (floatRow != null) {
                    out.put(
                            "cpu_speedup_vs_float32",
                            (Double) floatRow.get("cpu_us_per_query") / (Double) row.get("cpu_us_per_query"));
                    out.put(
                            "qps_ratio_to_float32",
                            (Double) row.get("qps_1_thread") / (Double) floatRow.get("qps_1_thread"));
                }
                table.add(out);
            }
        }
        return table;
    }
}
