package dev.compress.bench;

import dev.compress.codec.HnswParameters;
import dev.compress.codec.binary.BinaryCodeOptions;
import dev.compress.codec.binary.BinaryHnswVectorsFormat;
import dev.compress.codec.search.RescoringKnnQuery;
import dev.compress.harness.BenchData;
import java.io.Closeable;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.function.Supplier;
import org.apache.lucene.codecs.KnnVectorsFormat;
import org.apache.lucene.codecs.lucene104.Lucene104HnswScalarQuantizedVectorsFormat;
import org.apache.lucene.codecs.lucene104.Lucene104ScalarQuantizedVectorsFormat.ScalarEncoding;
import org.apache.lucene.codecs.lucene99.Lucene99HnswVectorsFormat;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.KnnFloatVectorField;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.index.CodecReader;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.index.TieredMergePolicy;
import org.apache.lucene.index.VectorSimilarityFunction;
import org.apache.lucene.search.AcceptDocs;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.tests.util.RamUsageTester;
import org.apache.lucene.tests.util.TestUtil;
import org.apache.lucene.util.IOUtils;

/**
 * Side-by-side benchmark of vector formats on the same vectors, k = 10, through the same query
 * ({@link RescoringKnnQuery}: {@code k x oversample} candidates from the graph, reordered with the
 * stored floats when rescoring), so every format gets the same candidate budget.
 *
 * <p>Each index is built by one thread with a 64 MB buffer (several flushed segments), then
 * force-merged to one segment, so the searched graph is a merged one and the merge is timed. For
 * corpora of a million vectors, {@code -Dbench.ram.buffer.mb} (up to 1,900) keeps the build to one
 * or two flushes: with 64 MB it would spend most of its time merging graph after graph. Every
 * search is warmed up (each query {@value #WARMUP_ROUNDS} times) before it is timed, once by one
 * thread and once by {@code threads} threads sharing the query list; the single thread's CPU time
 * per query is recorded too, since wall-clock figures on a shared machine carry its load. With
 * {@code -Dbench.index.dir} the built indexes are kept and reused by later runs ({@link BuiltIndex}).
 * Heap per vector is the object
 * graph of the open vector reader (Lucene's {@code RamUsageTester}); graphs, codes and vectors
 * themselves stay off-heap, in mmap'd files.
 */
final class FormatComparison {

    static final String FIELD = "v";
    static final int K = 10;
    private static final int WARMUP_ROUNDS = 3;
    private static final HnswParameters GRAPH = new HnswParameters(16, 100);
    private static final int RAM_BUFFER_MB = Integer.getInteger("bench.ram.buffer.mb", 64);

    /** Row key of the per-query recalls (a double[]), for paired comparisons; not a table column. */
    static final String PER_QUERY_RECALL = "recall_per_query";

    static final String LUCENE_FLOAT = "Lucene float32 HNSW";
    static final String LUCENE_OSQ = "Lucene 1-bit OSQ";
    static final String LUCENE_SQ7 = "Lucene 7-bit SQ";
    static final String OURS_BINARY = "ours binary";
    static final String OURS_CODES_ONLY = "ours binary codes-only";

    /** An index to build. */
    record IndexSpec(String name, Supplier<KnnVectorsFormat> format) {}

    /** A way to search an index: {@code k x oversample} candidates, rescored with floats or not. */
    record SearchSpec(String index, float oversample, boolean rescore) {

        /** The search a sweep row measured. */
        static SearchSpec of(Map<String, Object> row) {
            return new SearchSpec(
                    (String) row.get("index"),
                    ((Number) row.get("oversample")).floatValue(),
                    "yes".equals(row.get("rescore")));
        }
    }

    static final Map<String, IndexSpec> INDEXES = new LinkedHashMap<>();

    static {
        for (IndexSpec spec : List.of(
                new IndexSpec(LUCENE_FLOAT, () -> new Lucene99HnswVectorsFormat(GRAPH.m(), GRAPH.beamWidth())),
                new IndexSpec(
                        LUCENE_OSQ,
                        () -> new Lucene104HnswScalarQuantizedVectorsFormat(
                                ScalarEncoding.SINGLE_BIT_QUERY_NIBBLE, GRAPH.m(), GRAPH.beamWidth())),
                new IndexSpec(
                        LUCENE_SQ7,
                        () -> new Lucene104HnswScalarQuantizedVectorsFormat(
                                ScalarEncoding.SEVEN_BIT, GRAPH.m(), GRAPH.beamWidth())),
                new IndexSpec(OURS_BINARY, () -> new BinaryHnswVectorsFormat(GRAPH, new BinaryCodeOptions(true, true))),
                new IndexSpec(
                        OURS_CODES_ONLY,
                        () -> new BinaryHnswVectorsFormat(GRAPH, new BinaryCodeOptions(false, true))))) {
            INDEXES.put(spec.name(), spec);
        }
    }

    private FormatComparison() {}

    /**
     * Walks a reader's heap objects but not into the JDK's memory-mapping internals: the mapped
     * files are off-heap (and their classes closed to reflection).
     */
    private static final RamUsageTester.Accumulator ON_HEAP_ONLY = new RamUsageTester.Accumulator() {
        @Override
        public long accumulateObject(
                Object o,
                long shallowSize,
                Map<java.lang.reflect.Field, Object> fieldValues,
                Collection<Object> queue) {
            fieldValues.values().stream().filter(FormatComparison::onHeapObject).forEach(queue::add);
            return shallowSize;
        }

        @Override
        public long accumulateArray(Object array, long shallowSize, List<Object> values, Collection<Object> queue) {
            values.stream().filter(FormatComparison::onHeapObject).forEach(queue::add);
            return shallowSize;
        }
    };

    private static boolean onHeapObject(Object value) {
        if (value == null) {
            return false;
        }
        String name = value.getClass().getName();
        return name.startsWith("jdk.internal.") == false && name.startsWith("sun.") == false;
    }

    /** Builds every index that {@code searches} name and measures each search; one row per search. */
    static List<Map<String, Object>> run(BenchData set, List<SearchSpec> searches, int threads) throws IOException {
        return run(set, searches, threads, rows -> List.of(), 0).rows();
    }

    /**
     * The sweep's rows (one per search, each index timed after the previous one) and the rows of the searches
     * {@code timeTogether} picks from them, timed again in one interleaved pass ({@link #interleaved}).
     */
    record Comparison(List<Map<String, Object>> rows, List<Map<String, Object>> interleaved) {}

    /**
     * {@link #run(BenchData, List, int)}, then the searches {@code timeTogether} picks from the sweep's rows timed
     * again together: {@code rounds} interleaved rounds over indexes that all stay open.
     */
    static Comparison run(
            BenchData set,
            List<SearchSpec> searches,
            int threads,
            Function<List<Map<String, Object>>, List<SearchSpec>> timeTogether,
            int rounds)
            throws IOException {
        int[][] truth = set.exactTopK(K);
        List<Map<String, Object>> rows = new ArrayList<>();
        Double exactNdcg = set.judgments().isEmpty() ? null : set.meanNdcg(truth, K);
        Map<String, OpenIndex> open = new LinkedHashMap<>();
        try {
            for (String index :
                    searches.stream().map(SearchSpec::index).distinct().toList()) {
                OpenIndex opened = OpenIndex.open(set, index);
                open.put(index, opened);
                for (SearchSpec search : searches) {
                    if (search.index().equals(index)) {
                        Map<String, Object> row = opened.describe(search);
                        measure(set, truth, opened, search, threads, row);
                        if (exactNdcg != null) {
                            row.put("ndcg_ratio_to_exact", (Double) row.get("ndcg@10") / exactNdcg);
                        }
                        opened.addSizes(row);
                        rows.add(row);
                    }
                }
            }
            List<Map<String, Object>> together = interleaved(set, truth, open, timeTogether.apply(rows), rounds);
            if (exactNdcg != null) {
                Map<String, Object> exact = new LinkedHashMap<>();
                exact.put("data", set.name());
                exact.put("docs", set.corpus().length);
                exact.put("index", "exact float32 (brute force)");
                exact.put("candidates", "all");
                exact.put("recall@10", 1.0);
                exact.put("ndcg@10", exactNdcg);
                exact.put("ndcg_ratio_to_exact", 1.0);
                rows.add(0, exact);
            }
            return new Comparison(rows, together);
        } finally {
            IOUtils.close(open.values());
        }
    }

    /** A built index, open for searching, with what its rows report about its size. */
    private record OpenIndex(
            String data,
            String name,
            BuiltIndex built,
            Directory dir,
            DirectoryReader reader,
            IndexSearcher searcher,
            int[] idOf,
            double[] seconds,
            Map<String, Long> bytes,
            long heap)
            implements Closeable {

        static OpenIndex open(BenchData set, String index) throws IOException {
            BuiltIndex built = BuiltIndex.of(set, index);
            Directory dir = null;
            try {
                dir = FSDirectory.open(built.path());
                double[] seconds = built.seconds();
                if (seconds == null) {
                    seconds = build(dir, INDEXES.get(index).format().get(), set.corpus());
                    built.markBuilt(seconds);
                }
                DirectoryReader reader = DirectoryReader.open(dir);
                IndexSearcher searcher = new IndexSearcher(reader);
                searcher.setQueryCache(null);
                long heap = 0;
                for (LeafReaderContext leaf : reader.leaves()) {
                    heap += RamUsageTester.ramUsed(((CodecReader) leaf.reader()).getVectorReader(), ON_HEAP_ONLY);
                }
                return new OpenIndex(
                        set.name(),
                        index,
                        built,
                        dir,
                        reader,
                        searcher,
                        storedIds(reader),
                        seconds,
                        bytesByExtension(built.path()),
                        heap);
            } catch (IOException | RuntimeException e) {
                IOUtils.closeWhileHandlingException(dir, built);
                throw e;
            }
        }

        /** A new row naming the data, the index and the search. */
        Map<String, Object> describe(SearchSpec search) {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("data", data);
            row.put("docs", reader.maxDoc());
            row.put("index", name);
            row.put(
                    "candidates",
                    search.oversample() == 1 ? "k" : String.format(Locale.ROOT, "%.0fx", search.oversample()));
            row.put("rescore", search.rescore() ? "yes" : "no");
            row.put("oversample", search.oversample());
            return row;
        }

        /** Build and merge seconds, and bytes per vector on disk and on the heap. */
        void addSizes(Map<String, Object> row) {
            int n = reader.maxDoc();
            row.put("index_s", seconds[0]);
            row.put("merge_s", seconds[1]);
            row.put("ram_buffer_mb", RAM_BUFFER_MB);
            row.put(
                    "disk_bytes_per_vector",
                    bytes.values().stream().mapToLong(Long::longValue).sum() / (double) n);
            row.put("disk_files_bytes_per_vector", perVector(bytes, n));
            long graphAndCodes =
                    bytes.getOrDefault("vex", 0L) + bytes.getOrDefault("vbc", 0L) + bytes.getOrDefault("veq", 0L);
            row.put("graph_codes_bytes_per_vector", graphAndCodes / (double) n);
            row.put("heap_bytes_per_vector", heap / (double) n);
        }

        @Override
        public void close() throws IOException {
            IOUtils.close(reader, dir, built);
        }
    }

    /** Seconds to add every document (flushing as the buffer fills) and to force-merge to one segment. */
    private static double[] build(Directory dir, KnnVectorsFormat format, float[][] corpus) throws IOException {
        TieredMergePolicy mergePolicy = new TieredMergePolicy();
        mergePolicy.setNoCFSRatio(0);
        IndexWriterConfig config = new IndexWriterConfig()
                .setCodec(TestUtil.alwaysKnnVectorsFormat(format))
                .setUseCompoundFile(false)
                .setMergePolicy(mergePolicy)
                .setRAMBufferSizeMB(RAM_BUFFER_MB);
        try (IndexWriter writer = new IndexWriter(dir, config)) {
            long start = System.nanoTime();
            for (int id = 0; id < corpus.length; id++) {
                Document doc = new Document();
                doc.add(new StoredField("id", id));
                doc.add(new KnnFloatVectorField(FIELD, corpus[id], VectorSimilarityFunction.DOT_PRODUCT));
                writer.addDocument(doc);
            }
            writer.commit();
            long indexed = System.nanoTime();
            writer.forceMerge(1);
            writer.commit();
            return new double[] {(indexed - start) / 1e9, (System.nanoTime() - indexed) / 1e9};
        }
    }

    private static void measure(
            BenchData set, int[][] truth, OpenIndex index, SearchSpec search, int threads, Map<String, Object> row)
            throws IOException {
        IndexSearcher searcher = index.searcher();
        float[][] queries = set.queries();
        for (int round = 0; round < WARMUP_ROUNDS; round++) {
            for (float[] query : queries) {
                searcher.search(query(query, search), K);
            }
        }
        long[] nanos = new long[queries.length];
        long cpuNanos = 0;
        int[][] results = new int[queries.length][];
        ThreadMXBean cpu = ManagementFactory.getThreadMXBean();
        for (int q = 0; q < queries.length; q++) {
            TimedSearch timed = TimedSearch.run(cpu, index, search, queries[q]);
            nanos[q] = timed.nanos();
            cpuNanos += timed.cpuNanos();
            results[q] = timed.ids();
        }
        double[] recalls = new double[queries.length];
        for (int q = 0; q < queries.length; q++) {
            recalls[q] = BenchData.recall(truth[q], results[q]);
        }
        row.put("recall@10", Arrays.stream(recalls).average().orElse(0));
        row.put(PER_QUERY_RECALL, recalls);
        if (set.judgments().isEmpty() == false) {
            row.put("ndcg@10", set.meanNdcg(results, K));
        }
        putTimings(row, nanos, cpuNanos);
        row.put("qps_" + threads + "_threads", concurrentQps(searcher, queries, search, threads));
        row.put("visited_per_query", visitedPerQuery(searcher, queries, search));
    }

    /**
     * {@code searches} timed together by one thread in one {@link InterleavedPass}. One row per search, in their order.
     */
    private static List<Map<String, Object>> interleaved(
            BenchData set, int[][] truth, Map<String, OpenIndex> open, List<SearchSpec> searches, int rounds)
            throws IOException {
        float[][] queries = set.queries();
        int n = searches.size();
        long[][] nanos = new long[n][queries.length * rounds];
        long[] cpuNanos = new long[n];
        double[] recall = new double[n];
        ThreadMXBean cpu = ManagementFactory.getThreadMXBean();
        InterleavedPass.run(n, queries.length, rounds, (i, q, round) -> {
            OpenIndex index = open.get(searches.get(i).index());
            TimedSearch timed = TimedSearch.run(cpu, index, searches.get(i), queries[q]);
            if (round >= 0) {
                nanos[i][round * queries.length + q] = timed.nanos();
                cpuNanos[i] += timed.cpuNanos();
                recall[i] += BenchData.recall(truth[q], timed.ids());
            }
        });
        List<Map<String, Object>> rows = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Map<String, Object> row = open.get(searches.get(i).index()).describe(searches.get(i));
            row.put("recall@10", recall[i] / nanos[i].length);
            putTimings(row, nanos[i], cpuNanos[i]);
            rows.add(row);
        }
        return rows;
    }

    /** One search by this thread: the hits' corpus ids, its wall-clock and its CPU nanoseconds. */
    private record TimedSearch(int[] ids, long nanos, long cpuNanos) {

        static TimedSearch run(ThreadMXBean cpu, OpenIndex index, SearchSpec search, float[] vector)
                throws IOException {
            RescoringKnnQuery query = query(vector, search);
            long cpuStart = cpu.getCurrentThreadCpuTime();
            long start = System.nanoTime();
            TopDocs hits = index.searcher().search(query, K);
            long nanos = System.nanoTime() - start;
            long cpuNanos = cpu.getCurrentThreadCpuTime() - cpuStart;
            int[] ids = Arrays.stream(hits.scoreDocs)
                    .mapToInt(hit -> index.idOf()[hit.doc])
                    .toArray();
            return new TimedSearch(ids, nanos, cpuNanos);
        }
    }

    /** Rate, CPU time per query and latency percentiles of searches that took {@code nanos} one by one. */
    private static void putTimings(Map<String, Object> row, long[] nanos, long cpuNanos) {
        row.put("qps_1_thread", nanos.length / (Arrays.stream(nanos).sum() / 1e9));
        // CPU time of the searching thread: what a query costs, nearly free of other processes' load
        row.put("cpu_us_per_query", cpuNanos / 1e3 / nanos.length);
        row.put("p50_ms", RestTiming.percentile(nanos, 0.5));
        row.put("p99_ms", RestTiming.percentile(nanos, 0.99));
    }

    /** Graph nodes scored per query by the walk alone (no rescoring): the work a budget costs. */
    private static double visitedPerQuery(IndexSearcher searcher, float[][] queries, SearchSpec search)
            throws IOException {
        int candidates = query(queries[0], search).candidatesPerSegment();
        long visited = 0;
        for (float[] query : queries) {
            for (LeafReaderContext leaf : searcher.getIndexReader().leaves()) {
                AcceptDocs all = AcceptDocs.fromLiveDocs(
                        leaf.reader().getLiveDocs(), leaf.reader().maxDoc());
                visited += leaf.reader()
                        .searchNearestVectors(FIELD, query, candidates, all, Integer.MAX_VALUE)
                        .totalHits
                        .value();
            }
        }
        return visited / (double) queries.length;
    }

    /** Queries per second when {@code threads} threads take the queries from one shared list. */
    private static double concurrentQps(IndexSearcher searcher, float[][] queries, SearchSpec search, int threads)
            throws IOException {
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            AtomicInteger next = new AtomicInteger();
            List<Future<?>> running = new ArrayList<>();
            long start = System.nanoTime();
            for (int t = 0; t < threads; t++) {
                running.add(pool.submit(() -> {
                    for (int q; (q = next.getAndIncrement()) < queries.length; ) {
                        searcher.search(query(queries[q], search), K);
                    }
                    return null;
                }));
            }
            for (Future<?> f : running) {
                f.get();
            }
            return queries.length / ((System.nanoTime() - start) / 1e9);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException(e);
        } catch (java.util.concurrent.ExecutionException e) {
            throw new IOException(e.getCause());
        } finally {
            pool.shutdown();
        }
    }

    private static RescoringKnnQuery query(float[] vector, SearchSpec search) {
        return new RescoringKnnQuery(FIELD, vector, K, search.oversample(), null, search.rescore());
    }

    /** Each doc's corpus id (the stored {@code id} field), by doc id. */
    static int[] storedIds(DirectoryReader reader) throws IOException {
        int[] ids = new int[reader.maxDoc()];
        StoredFields stored = reader.storedFields();
        for (int doc = 0; doc < ids.length; doc++) {
            ids[doc] = stored.document(doc).getField("id").numericValue().intValue();
        }
        return ids;
    }

    /** Bytes of the vector files by extension (stored fields and other files left out). */
    private static Map<String, Long> bytesByExtension(Path dir) throws IOException {
        Map<String, Long> bytes = new TreeMap<>();
        try (var files = Files.list(dir)) {
            for (Path file : (Iterable<Path>) files::iterator) {
                String name = file.getFileName().toString();
                int dot = name.lastIndexOf('.');
                String ext = dot < 0 ? "" : name.substring(dot + 1);
                if (ext.startsWith("v")) {
                    bytes.merge(ext, Files.size(file), Long::sum);
                }
            }
        }
        return bytes;
    }

    private static String perVector(Map<String, Long> bytes, int n) {
        StringBuilder out = new StringBuilder();
        for (Map.Entry<String, Long> e : bytes.entrySet()) {
            double per = e.getValue() / (double) n;
            if (per >= 0.05) {
                out.append(out.length() == 0 ? "" : ", ")
                        .append(String.format(Locale.ROOT, "%s %.1f", e.getKey(), per));
            }
        }
        return out.toString();
    }
}
