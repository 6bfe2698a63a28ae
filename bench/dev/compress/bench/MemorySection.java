package dev.compress.bench;

import static dev.compress.bench.FormatComparison.K;
import static dev.compress.bench.FormatComparison.LUCENE_FLOAT;
import static dev.compress.bench.FormatComparison.LUCENE_OSQ;
import static dev.compress.bench.FormatComparison.OURS_BINARY;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.compress.bench.BoundedSearch.Workload;
import dev.compress.harness.BenchData;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Search speed when the page cache holds only part of an index, as on a node whose RAM the vectors
 * outgrow, which is what compression is for. Every other speed table runs with the whole index in
 * RAM, where a float32 graph's only cost is compute. Here each search runs in a child process
 * ({@link BoundedSearch}) inside a memory cgroup ({@link MemoryCgroup}), after the index's files
 * are dropped from the page cache; the child reads the index's files once to fill the cache, its
 * first queries leave in it what they use most, and the rest are timed. Each index then keeps in
 * RAM what the kernel's LRU finds hottest: for ours the graph and codes (144 bytes per vector at
 * 384-d) and some stored floats, for float32 part of its graph and vectors (1,617 bytes per
 * vector).
 *
 * <p>It reads the synthetic set's indexes an earlier {@code codec} run kept under {@code
 * -Dbench.index.dir} (same {@code -Dbench.synthetic.docs}): {@code -Dbench.memory.indexes}, default
 * {@code float32,binary}; {@code osq} adds Lucene's 1-bit OSQ. Page-cache budgets in MB:
 * {@code -Dbench.memory.cache.mb} (default 512,1024); each cgroup's limit is set, once the child has
 * started and opened the index, to what it holds then plus the budget, and the index bytes actually
 * resident at the end are reported ({@code fincore}). Linux only, as root.
 */
final class MemorySection implements BenchSection {

    private static final int CHILD_HEAP_MB = 256;
    /**
     * Candidate budgets chosen to bracket recall 0.80 for each format: float32 needs fewer
     * candidates than the 1-bit formats, whose walk ranks by an estimate. The recall of
     * every budget: {@code bench/run full codec} with {@code -Dbench.synthetic.docs=1000000}.
     */
    private static final Map<String, float[]> BUDGETS =
            Map.of(LUCENE_FLOAT, new float[] {12, 16}, LUCENE_OSQ, new float[] {12, 16, 24}, OURS_BINARY, new float[] {
                12, 16, 24
            });

    private static final double RECALL_LEVEL = 0.80;

    @Override
    public String name() {
        return "memory";
    }

    @Override
    public List<ResultTable> run(BenchMode mode) throws Exception {
        if (System.getProperty("bench.index.dir") == null) {
            throw new IllegalStateException("memory reads indexes kept by a codec run: set -Dbench.index.dir");
        }
        BenchData set = CodecSection.syntheticSet(mode);
        int warmup = Integer.getInteger("bench.memory.warmup", mode.full() ? 500 : 300);
        Path workload = BenchPaths.output().resolve("memory-workload.bin");
        Files.createDirectories(workload.getParent());
        new Workload(set.queries(), set.exactTopK(K)).write(workload);
        List<Integer> cacheMb = Arrays.stream(
                        System.getProperty("bench.memory.cache.mb", "512,1024").split(","))
                .map(s -> Integer.parseInt(s.trim()))
                .toList();
        ResultTable table = new ResultTable(
                set.name() + ": page cache limited, k = 10, 1-bit indexes rescored (" + (set.queries().length - warmup)
                        + " timed queries after " + warmup + ")",
                List.of(
                        "page_cache_budget_mb",
                        "index",
                        "candidates",
                        "recall@10",
                        "qps_1_thread",
                        "p50_ms",
                        "p99_ms",
                        "cpu_us_per_query",
                        "major_faults_per_query",
                        "index_resident_mb",
                        "index_mb"));
        // every kept index is looked up, and sized, once, before the first of many minutes of searching
        List<String> indexes = indexes();
        Map<String, Path> paths = new LinkedHashMap<>();
        Map<String, Double> megabytes = new LinkedHashMap<>();
        for (String index : indexes) {
            BuiltIndex built = BuiltIndex.of(set, index);
            if (built.seconds() == null) {
                throw new IllegalStateException("memory reads the " + index + " index of [" + set.name()
                        + "] kept by a codec run: run `bench/run <mode> codec` "
                        + "with -Dbench.index.dir (and the same -Dbench.synthetic.docs) first");
            }
            paths.put(index, built.path());
            megabytes.put(index, indexBytes(built.path()) / 1e6);
        }
        for (int budget : cacheMb) {
            for (String index : indexes) {
                for (float oversample : BUDGETS.get(index)) {
                    Map<String, Object> row = new LinkedHashMap<>();
                    row.put("page_cache_budget_mb", budget);
                    row.put("index", index);
                    row.put("candidates", String.format(Locale.ROOT, "%.0fx", oversample));
                    row.putAll(searchBounded(index, paths.get(index), workload, oversample, warmup, budget));
                    row.put("index_mb", megabytes.get(index));
                    table.add(row);
                    System.out.println(row);
                }
            }
        }
        table.note("Each row: a new process (heap "
                + CHILD_HEAP_MB
                + " MB) in a memory cgroup, the index's files evicted from the page cache first; once the index is open the cgroup's limit "
                + "becomes what the process holds plus the budget, and the process reads the index's files once before its warm-up queries. "
                + "major_faults: page reads from disk per timed query; index_resident_mb: the index's pages in the page cache when the "
                + "process ended.");
        return List.of(table, equalRecall(set.name(), table.rows(), cacheMb, indexes));
    }

    /** The indexes {@code -Dbench.memory.indexes} names, float32 first: the others are compared with it. */
    private static List<String> indexes() {
        List<String> names = new ArrayList<>(List.of(LUCENE_FLOAT));
        for (String key :
                System.getProperty("bench.memory.indexes", "float32,binary").split(",")) {
            String name = CodecSection.INDEX_KEYS.get(key.trim());
            if (name == null || BUDGETS.containsKey(name) == false) {
                throw new IllegalArgumentException(
                        "bench.memory.indexes: unknown index [" + key + "]; known: float32, osq, binary");
            }
            if (names.contains(name) == false) {
                names.add(name);
            }
        }
        return names;
    }

    private static Map<String, Object> searchBounded(
            String indexName, Path index, Path workload, float oversample, int warmup, int budgetMb)
            throws IOException, InterruptedException {
        evictFromPageCache(index);
        try (MemoryCgroup cgroup =
                MemoryCgroup.create("compress-bench-" + ProcessHandle.current().pid())) {
            List<String> java = List.of(
                    ProcessHandle.current().info().command().orElseThrow(),
                    "--add-modules",
                    "jdk.incubator.vector",
                    "-Xms" + CHILD_HEAP_MB + "m",
                    "-Xmx" + CHILD_HEAP_MB + "m",
                    "-XX:+AlwaysPreTouch",
                    "-cp",
                    System.getProperty("java.class.path"),
                    BoundedSearch.class.getName(),
                    index.toString(),
                    workload.toString(),
                    Float.toString(oversample),
                    // as in the codec section: float32 keeps the walk's exact scores, the 1-bit indexes rescore
                    Boolean.toString(LUCENE_FLOAT.equals(indexName) == false),
                    Integer.toString(warmup));
            Process child = new ProcessBuilder(cgroup.wrap(java))
                    .redirectError(ProcessBuilder.Redirect.INHERIT)
                    .start();
            BufferedReader out =
                    new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
            String line = out.readLine();
            while (line != null && line.equals(BoundedSearch.READY) == false) {
                line = out.readLine();
            }
            if (line != null) {
                // the JVM, its heap and the open index are in; from here the index gets the budget and no more
                cgroup.limit(cgroup.usageBytes() + ((long) budgetMb << 20));
                try (Writer go = new OutputStreamWriter(child.getOutputStream(), StandardCharsets.UTF_8)) {
                    go.write("go\n");
                }
            }
            List<String> rest = out.lines().toList();
            if (child.waitFor() != 0 || rest.isEmpty()) {
                throw new IllegalStateException(
                        "the bounded search of " + index + " failed (exit " + child.exitValue() + "): " + rest);
            }
            @SuppressWarnings("unchecked")
            Map<String, Object> row = new ObjectMapper().readValue(rest.get(rest.size() - 1), Map.class);
            row.put("index_resident_mb", residentBytes(index) / 1e6);
            return row;
        }
    }

    /** Drops the index's clean pages from the page cache ({@code posix_fadvise(DONTNEED)} through dd). */
    static void evictFromPageCache(Path index) throws IOException, InterruptedException {
        for (Path file : files(index)) {
            run(List.of("dd", "if=" + file, "iflag=nocache", "count=0", "status=none"));
        }
    }

    /** Bytes of the index's files in the page cache ({@code fincore}). */
    static long residentBytes(Path index) throws IOException, InterruptedException {
        long bytes = 0;
        for (Path file : files(index)) {
            bytes += Long.parseLong(
                    run(List.of("fincore", "--bytes", "--noheadings", "--output", "RES", file.toString()))
                            .trim());
        }
        return bytes;
    }

    private static long indexBytes(Path index) throws IOException {
        long bytes = 0;
        for (Path file : files(index)) {
            bytes += Files.size(file);
        }
        return bytes;
    }

    /** The index's files, in name order. */
    static List<Path> files(Path index) throws IOException {
        try (var list = Files.list(index)) {
            return list.filter(Files::isRegularFile).sorted().toList();
        }
    }

    private static String run(List<String> command) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (process.waitFor() != 0) {
            throw new IOException(String.join(" ", command) + " failed: " + out);
        }
        return out;
    }

    /** Per budget and 1-bit index: its and float32's smallest candidate budget reaching the recall level, and the speed ratio. */
    private static ResultTable equalRecall(
            String setName, List<Map<String, Object>> rows, List<Integer> cacheMb, List<String> indexes) {
        ResultTable table = new ResultTable(
                setName + ": page cache limited, at recall@10 >= " + RECALL_LEVEL + " (smallest budget reaching it)",
                List.of(
                        "page_cache_budget_mb",
                        "index",
                        "index_reaches",
                        "float32_reaches",
                        "qps_ratio_to_float32",
                        "cpu_ratio_float32_to_index"));
        for (int budget : cacheMb) {
            Map<String, Object> floats = smallestReaching(rows, budget, LUCENE_FLOAT);
            for (String index : indexes.subList(1, indexes.size())) {
                Map<String, Object> compressed = smallestReaching(rows, budget, index);
                Map<String, Object> out = new LinkedHashMap<>();
                out.put("page_cache_budget_mb", budget);
                out.put("index", index);
                out.put("index_reaches", describe(compressed));
                out.put("float32_reaches", describe(floats));
                if (floats != null && compressed != null) {
                    out.put(
                            "qps_ratio_to_float32",
                            number(compressed, "qps_1_thread") / number(floats, "qps_1_thread"));
                    out.put(
                            "cpu_ratio_float32_to_index",
                            number(floats, "cpu_us_per_query") / number(compressed, "cpu_us_per_query"));
                }
                table.add(out);
            }
        }
        return table;
    }

    private static Map<String, Object> smallestReaching(List<Map<String, Object>> rows, int budget, String index) {
        // rows of one index come in increasing candidate order
        return rows.stream()
                .filter(r -> r.get("page_cache_budget_mb").equals(budget)
                        && r.get("index").equals(index))
                .filter(r -> number(r, "recall@10") >= RECALL_LEVEL)
                .findFirst()
                .orElse(null);
    }

    private static String describe(Map<String, Object> row) {
        return row == null
                ? "not reached"
                : String.format(
                        Locale.ROOT,
                        "%s: recall %.4f, %.1f q/s",
                        row.get("candidates"),
                        number(row, "recall@10"),
                        number(row, "qps_1_thread"));
    }

    private static double number(Map<String, Object> row, String key) {
        return ((Number) row.get(key)).doubleValue();
    }
}
