package dev.compress.bench;

import static dev.compress.bench.FormatComparison.FIELD;
import static dev.compress.bench.FormatComparison.K;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.compress.codec.search.RescoringKnnQuery;
import dev.compress.harness.BenchData;
import java.io.BufferedInputStream;
import java.io.BufferedReader;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.store.MMapDirectory;

/**
 * The searching process of {@link MemorySection}: opens one kept index, searches the queries of a
 * {@link Workload} file, and prints one JSON line of figures. It runs in a memory cgroup. Once the
 * index is open it prints {@value #READY} and waits for a line on standard input, so the parent
 * can set the cgroup's limit to what the process holds then plus the page cache budget: pages the
 * walk needs beyond that are read from disk, as on a node whose RAM the index outgrows. It then
 * reads the index's files once, and the first {@code warmup} queries leave in the cache what the
 * searches use most; the rest are timed.
 *
 * <p>Usage: {@code BoundedSearch <index dir> <workload file> <oversample> <rescore> <warmup>}
 */
public final class BoundedSearch {

    static final String READY = "ready";

    private BoundedSearch() {}

    public static void main(String[] args) throws Exception {
        Path index = Path.of(args[0]);
        Workload workload = Workload.read(Path.of(args[1]));
        float oversample = Float.parseFloat(args[2]);
        boolean rescore = Boolean.parseBoolean(args[3]);
        int warmup = Integer.parseInt(args[4]);
        try (MMapDirectory dir = new MMapDirectory(index);
                DirectoryReader reader = open(dir)) {
            IndexSearcher searcher = new IndexSearcher(reader);
            searcher.setQueryCache(null);
            float[][] queries = workload.queries();
            System.out.println(READY);
            System.out.flush();
            if (new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine() == null) {
                throw new IllegalStateException("the parent process went away before the limit was set");
            }
            fillPageCache(index);
            for (int q = 0; q < warmup; q++) {
                searcher.search(new RescoringKnnQuery(FIELD, queries[q], K, oversample, null, rescore), K);
            }
            int timed = queries.length - warmup;
            TopDocs[] hits = new TopDocs[timed];
            long[] nanos = new long[timed];
            ThreadMXBean cpu = ManagementFactory.getThreadMXBean();
            long faultsBefore = majorFaults();
            long cpuStart = cpu.getCurrentThreadCpuTime();
            for (int i = 0; i < timed; i++) {
                RescoringKnnQuery query =
                        new RescoringKnnQuery(FIELD, queries[warmup + i], K, oversample, null, rescore);
                long start = System.nanoTime();
                hits[i] = searcher.search(query, K);
                nanos[i] = System.nanoTime() - start;
            }
            long cpuNanos = cpu.getCurrentThreadCpuTime() - cpuStart;
            long faults = majorFaults() - faultsBefore;
            // stored ids are read after the clock stops: they are not part of a search
            StoredFields stored = reader.storedFields();
            double recall = 0;
            for (int i = 0; i < timed; i++) {
                int[] found = new int[hits[i].scoreDocs.length];
                for (int j = 0; j < found.length; j++) {
                    found[j] = stored.document(hits[i].scoreDocs[j].doc)
                            .getField("id")
                            .numericValue()
                            .intValue();
                }
                recall += BenchData.recall(workload.truth()[warmup + i], found);
            }
            long[] sorted = nanos.clone();
            Arrays.sort(sorted);
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("timed_queries", timed);
            row.put("recall@10", recall / timed);
            row.put("qps_1_thread", timed / (Arrays.stream(nanos).sum() / 1e9));
            row.put("cpu_us_per_query", cpuNanos / 1e3 / timed);
            row.put("p50_ms", sorted[timed / 2] / 1e6);
            row.put("p99_ms", sorted[(int) Math.ceil(timed * 0.99) - 1] / 1e6);
            row.put("major_faults_per_query", faults / (double) timed);
            System.out.println(new ObjectMapper().writeValueAsString(row));
        }
    }

    /**
     * Opens the index with each file's read advice taken from the hints its format opens it with
     * (vectors and graphs: random access). Lucene's default leaves every file on the kernel's normal
     * read-ahead, and a page fault then reads ahead up to the block device's read-ahead window (often
     * megabytes), which under a tight page cache evicts more than it brings.
     */
    private static DirectoryReader open(MMapDirectory dir) throws IOException {
        dir.setReadAdvice(MMapDirectory.ADVISE_BY_CONTEXT);
        return DirectoryReader.open(dir);
    }

    /**
     * Reads every file of the index once, so the cache starts full (as far as the limit allows) rather
     * than empty: without it a budget above the index's size measured a cache still filling, since
     * a few hundred queries touch only part of the vectors.
     */
    private static void fillPageCache(Path index) throws IOException {
        ByteBuffer buffer = ByteBuffer.allocateDirect(1 << 20);
        for (Path file : MemorySection.files(index)) {
            try (FileChannel channel = FileChannel.open(file)) {
                while (channel.read(buffer.clear()) > 0) {
                    // the read itself is the point: it brings the file into the page cache
                }
            }
        }
    }

    /** Page faults of this process that had to read from disk ({@code /proc/self/stat}, field 12). */
    private static long majorFaults() throws IOException {
        String stat = Files.readString(Path.of("/proc/self/stat"));
        // the command name (field 2) is in parentheses and may hold spaces: count from after it
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return Long.parseLong(fields[9]);
    }

    /** Queries and, per query, the corpus ids of its exact top k, as the parent process wrote them. */
    record Workload(float[][] queries, int[][] truth) {

        void write(Path file) throws IOException {
            try (DataOutputStream out = new DataOutputStream(Files.newOutputStream(file))) {
                out.writeInt(queries.length);
                out.writeInt(queries[0].length);
                out.writeInt(truth[0].length);
                for (int q = 0; q < queries.length; q++) {
                    for (float v : queries[q]) {
                        out.writeFloat(v);
                    }
                    for (int id : truth[q]) {
                        out.writeInt(id);
                    }
                }
            }
        }

        static Workload read(Path file) throws IOException {
            try (DataInputStream in = new DataInputStream(new BufferedInputStream(Files.newInputStream(file)))) {
                int n = in.readInt(), dims = in.readInt(), k = in.readInt();
                float[][] queries = new float[n][dims];
                int[][] truth = new int[n][k];
                for (int q = 0; q < n; q++) {
                    for (int d = 0; d < dims; d++) {
                        queries[q][d] = in.readFloat();
                    }
                    for (int j = 0; j < k; j++) {
                        truth[q][j] = in.readInt();
                    }
                }
                return new Workload(queries, truth);
            }
        }
    }
}
