package dev.compress.bench;

import static dev.compress.bench.FormatComparison.FIELD;
import static dev.compress.bench.FormatComparison.K;
import static dev.compress.bench.FormatComparison.LUCENE_FLOAT;
import static dev.compress.bench.FormatComparison.OURS_BINARY;

import dev.compress.codec.binary.BinarizedVectorValues;
import dev.compress.codec.binary.BinaryCodeOptions;
import dev.compress.codec.binary.BinaryFlatVectorsFormat;
import dev.compress.codec.binary.BinaryFlatVectorsReader;
import dev.compress.codec.binary.SignCodeEstimator;
import dev.compress.harness.BenchData;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.apache.lucene.codecs.KnnVectorsReader;
import org.apache.lucene.codecs.hnsw.FlatVectorScorerUtil;
import org.apache.lucene.codecs.hnsw.HnswGraphProvider;
import org.apache.lucene.codecs.perfield.PerFieldKnnVectorsFormat;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.FieldInfo;
import org.apache.lucene.index.FloatVectorValues;
import org.apache.lucene.index.SegmentReadState;
import org.apache.lucene.index.SegmentReader;
import org.apache.lucene.index.VectorSimilarityFunction;
import org.apache.lucene.search.AcceptDocs;
import org.apache.lucene.search.TopKnnCollector;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.store.IOContext;
import org.apache.lucene.util.IOUtils;
import org.apache.lucene.util.VectorUtil;
import org.apache.lucene.util.hnsw.HnswGraph;
import org.apache.lucene.util.hnsw.HnswGraphSearcher;
import org.apache.lucene.util.hnsw.RandomVectorScorer;

/**
 * Where a binary search's extra graph visits come from. The float32 index's graph and ours are each
 * walked by Lucene's HNSW searcher twice, once scoring nodes exactly (float query against float
 * vectors) and once with the estimate our search uses (4-bit query against sign codes; on our
 * graph, through our reader's own search), for a
 * range of beam widths. Every beam is then reranked exactly, as rescoring does, so recall@10 says
 * what the walk found and {@code visited} what it cost: the graphs' quality and the estimate's
 * are measured apart. One more walk of the float32 graph reads each node's exact score from an array
 * filled before the walk: its CPU time is the searcher's own cost (neighbour lists, visited set,
 * queues), the floor under any scorer's walk at that many visits. A loop of our own ({@link
 * PlainHnswWalk}) walks a fixed-width heap copy of our graph and codes, the floor for a graph format
 * and searcher of our own, and walks the index's files in place, what a searcher of our own would
 * do on the format as it is. Every walk's beam is also scored exactly against the float32
 * index's floats, untimed in the walk and timed apart, as rescoring would score it.
 *
 * <p>It reads the synthetic set's float32 and binary indexes an earlier {@code codec} run kept
 * under {@code -Dbench.index.dir} (same {@code -Dbench.synthetic.docs}); each is one segment after
 * that run's force-merge.
 */
final class WalkSection implements BenchSection {

    private static final int[] BEAMS = {30, 50, 80, 120, 160, 240, 320, 480};

    @Override
    public String name() {
        return "walk";
    }

    @Override
    public List<ResultTable> run(BenchMode mode) throws Exception {
        BenchData set = CodecSection.syntheticSet(mode);
        int[][] truth = set.exactTopK(K);
        try (Index floats = Index.open(set, LUCENE_FLOAT);
                Index ours = Index.open(set, OURS_BINARY);
                BinaryFlatVectorsReader codesReader = ours.codesReader()) {
            ResultTable table = new ResultTable(
                    set.name() + ": graph walks with exact and estimated scores, each beam reranked exactly",
                    List.of(
                            "graph",
                            "walk",
                            "beam",
                            "visited_per_query",
                            "recall@10",
                            "cpu_us_per_query",
                            "rescore_cpu_us_per_query"));
            Rescorer rescorer = new Rescorer(floats);
            BinarizedVectorValues codes = codesReader.codes(FIELD);
            List<Variant> variants = new ArrayList<>();
            for (Index graph : List.of(floats, ours)) {
                // our codes are in our index's ordinal order; the float32 graph's nodes map to them by id
                int[] toCodeOrd = graph == ours ? null : ordinalMap(graph, ours);
                variants.add(new Variant(graph, "exact", lucene(graph, q -> exactScorer(graph, q))));
                variants.add(
                        graph == ours
                                ? new Variant(ours, "4-bit query estimate, our reader's search", readerSearch(ours))
                                : new Variant(
                                        graph,
                                        "4-bit query estimate",
                                        lucene(
                                                graph,
                                                q -> translated(
                                                        codesReader.getRandomVectorScorer(FIELD, q), toCodeOrd))));
            }
            variants.add(new Variant(floats, "precomputed exact scores", lucene(floats, q -> precomputed(floats, q))));
            variants.add(new Variant(
                    ours,
                    "4-bit query estimate, fixed-width copy, own loop",
                    ownLoop(PlainHnswWalk.fixedWidthCopy(ours.graph, codes), codes)));
            variants.add(new Variant(
                    ours,
                    "4-bit query estimate, files in place, own loop",
                    ownLoop(PlainHnswWalk.inPlace(ours.graph, codes), codes)));
            walkInterleaved(table, set, truth, rescorer, variants);
            table.note(
                    "Lucene's HnswGraphSearcher on each index's one graph, k = beam; recall@10 after reranking the beam with exact dot products. "
                            + "A flushed segment's graph is built on exact similarities, a merged one's on each format's own scores. "
                            + "our reader's search: our index's own KnnVectorsReader searching with k = beam, the walk a query takes "
                            + "(its scorer built from the query; Lucene's searcher with the dense visited set our reader picks). "
                            + "cpu_us_per_query: CPU time of the searching thread inside the walk; the walks are timed interleaved, each block of "
                            + QUERY_BLOCK
                            + " queries walked by every row's walk in turn (the order rotating from block to block) after one untimed block "
                            + "for each (JIT warm-up), since this machine's speed drifts by more than the walks differ; "
                            + "precomputed exact scores: every node's score computed before the walk and read from an array during it; "
                            + "fixed-width copy, own loop: our graph's bottom level and codes copied into fixed-width heap arrays and walked by a "
                            + "plain HNSW loop of our own (PlainHnswWalk), a bound for a graph format and searcher of our own; "
                            + "files in place, own loop: the same loop on Lucene's graph and our codes as the index stores them. "
                            + "rescore_cpu_us_per_query: exact scores of the whole beam from the float32 index's floats with Lucene's float32 scorer, "
                            + "what rescoring would add.");
            return List.of(table);
        }
    }

    @FunctionalInterface
    private interface ScorerFactory {
        RandomVectorScorer scorer(float[] query) throws IOException;
    }

    /** A query ready to walk a graph: the walk is timed, reading its beam afterwards is not. */
    private interface PreparedWalk {
        /** Walks with {@code beam}; returns the nodes scored. */
        long walk(int beam) throws IOException;

        /** The last walk's beam, as the walked graph's ordinals. */
        int[] beam() throws IOException;
    }

    @FunctionalInterface
    private interface WalkFactory {
        PreparedWalk prepare(float[] query) throws IOException;
    }

    /** Lucene's HNSW searcher on {@code graph} with the scorers of {@code scorers}. */
    private static WalkFactory lucene(Index graph, ScorerFactory scorers) {
        return query -> {
            RandomVectorScorer scorer = scorers.scorer(query);
            return new PreparedWalk() {
                TopKnnCollector collector;

                @Override
                public long walk(int beam) throws IOException {
                    collector = new TopKnnCollector(beam, Integer.MAX_VALUE);
                    HnswGraphSearcher.search(scorer, collector, graph.graph, null);
                    return collector.visitedCount();
                }

                @Override
                public int[] beam() {
                    // one segment without deletions: doc = ordinal
                    return Arrays.stream(collector.topDocs().scoreDocs)
                            .mapToInt(hit -> hit.doc)
                            .toArray();
                }
            };
        };
    }

    /**
     * The index's own reader searching with k = beam: for ours, the walk a query takes (its scorer
     * built from the query, the visited set our reader chooses), without rescoring.
     */
    private static WalkFactory readerSearch(Index index) {
        int maxDoc = index.segment.maxDoc();
        return query -> new PreparedWalk() {
            TopKnnCollector collector;

            @Override
            public long walk(int beam) throws IOException {
                collector = new TopKnnCollector(beam, Integer.MAX_VALUE);
                index.vectors.search(FIELD, query, collector, AcceptDocs.fromLiveDocs(null, maxDoc));
                return collector.visitedCount();
            }

            @Override
            public int[] beam() {
                // one segment without deletions: doc = ordinal
                return Arrays.stream(collector.topDocs().scoreDocs)
                        .mapToInt(hit -> hit.doc)
                        .toArray();
            }
        };
    }

    /** {@link PlainHnswWalk}'s loop with the search's estimate against {@code codes}. */
    private static WalkFactory ownLoop(PlainHnswWalk graph, BinarizedVectorValues codes) {
        return query -> {
            SignCodeEstimator estimator = new SignCodeEstimator(query, codes.centroid(), codes.similarity());
            return new PreparedWalk() {
                int[] nodes;

                @Override
                public long walk(int beam) throws IOException {
                    nodes = graph.search(estimator, beam);
                    return graph.visits();
                }

                @Override
                public int[] beam() {
                    return nodes;
                }
            };
        };
    }

    /** One kind of walk on one graph: a group of rows of the table. */
    private record Variant(Index graph, String walk, WalkFactory walks) {}

    /** A variant's sums over the queries walked so far, per beam. */
    private static final class Totals {
        final long[] visited = new long[BEAMS.length];
        final long[] cpuNanos = new long[BEAMS.length];
        final long[] rescoreNanos = new long[BEAMS.length];
        final double[] recall = new double[BEAMS.length];
    }

    /**
     * Queries go in blocks: each block's walks are prepared first (untimed: a precomputed scorer reads
     * the whole index, which empties the CPU caches), then walked at every beam.
     */
    private static final int QUERY_BLOCK = 64;

    /**
     * Walks every query with every variant, block by block: one untimed block per variant first, then
     * each block by every variant in turn, the order rotating, so that drift and JIT compilation fall
     * on all variants alike rather than on whichever runs first or last.
     */
    private static void walkInterleaved(
            ResultTable table, BenchData set, int[][] truth, Rescorer rescorer, List<Variant> variants)
            throws IOException {
        int queries = set.queries().length;
        for (Variant variant : variants) {
            walkBlock(set, truth, rescorer, variant, 0, Math.min(queries, QUERY_BLOCK), new Totals());
        }
        List<Totals> totals = variants.stream().map(v -> new Totals()).toList();
        for (int from = 0, block = 0; from < queries; from += QUERY_BLOCK, block++) {
            int to = Math.min(queries, from + QUERY_BLOCK);
            for (int i = 0; i < variants.size(); i++) {
                int v = (block + i) % variants.size();
                walkBlock(set, truth, rescorer, variants.get(v), from, to, totals.get(v));
            }
        }
        for (int v = 0; v < variants.size(); v++) {
            Totals sums = totals.get(v);
            for (int b = 0; b < BEAMS.length; b++) {
                Map<String, Object> row = new LinkedHashMap<>();
                row.put("graph", variants.get(v).graph().name);
                row.put("walk", variants.get(v).walk());
                row.put("beam", BEAMS[b]);
                row.put("visited_per_query", sums.visited[b] / (double) queries);
                row.put("recall@10", sums.recall[b] / queries);
                row.put("cpu_us_per_query", sums.cpuNanos[b] / 1e3 / queries);
                row.put("rescore_cpu_us_per_query", sums.rescoreNanos[b] / 1e3 / queries);
                table.add(row);
            }
        }
    }

    /** Walks queries {@code [from, to)} with {@code variant} at every beam, adding to {@code sums}. */
    private static void walkBlock(
            BenchData set, int[][] truth, Rescorer rescorer, Variant variant, int from, int to, Totals sums)
            throws IOException {
        float[][] queries = set.queries();
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        Index graph = variant.graph();
        int[] toFloatOrd = graph == rescorer.floats ? null : rescorer.ordinalMap(graph);
        PreparedWalk[] block = new PreparedWalk[to - from];
        RandomVectorScorer[] exact = new RandomVectorScorer[to - from];
        for (int q = from; q < to; q++) {
            block[q - from] = variant.walks().prepare(queries[q]);
            exact[q - from] = exactScorer(rescorer.floats, queries[q]);
        }
        for (int b = 0; b < BEAMS.length; b++) {
            for (int q = from; q < to; q++) {
                long start = threads.getCurrentThreadCpuTime();
                sums.visited[b] += block[q - from].walk(BEAMS[b]);
                sums.cpuNanos[b] += threads.getCurrentThreadCpuTime() - start;
                int[] beam = block[q - from].beam();
                sums.rescoreNanos[b] += rescorer.time(exact[q - from], beam, toFloatOrd);
                float[] query = queries[q];
                int[] reranked = Arrays.stream(beam)
                        .map(ord -> graph.ids[ord])
                        .boxed()
                        .sorted(Comparator.comparingDouble(id -> -VectorUtil.dotProduct(query, set.corpus()[id])))
                        .limit(K)
                        .mapToInt(Integer::intValue)
                        .toArray();
                sums.recall[b] += BenchData.recall(truth[q], reranked);
            }
        }
    }

    /** Times exact scoring of a beam against the float32 index's floats, as rescoring would. */
    private static final class Rescorer {
        final Index floats;
        private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        private float[] scores = new float[0];

        private final Map<Index, int[]> ordinalMaps = new java.util.IdentityHashMap<>();

        Rescorer(Index floats) {
            this.floats = floats;
        }

        /** {@code graph}'s ordinals mapped to the float32 index's, computed once per graph. */
        int[] ordinalMap(Index graph) {
            return ordinalMaps.computeIfAbsent(graph, g -> WalkSection.ordinalMap(g, floats));
        }

        /** CPU nanoseconds to score {@code beam} (ordinals mapped through {@code toFloatOrd}, null: same). */
        long time(RandomVectorScorer exact, int[] beam, int[] toFloatOrd) throws IOException {
            int[] nodes = toFloatOrd == null
                    ? beam
                    : Arrays.stream(beam).map(ord -> toFloatOrd[ord]).toArray();
            if (scores.length < nodes.length) {
                scores = new float[nodes.length];
            }
            long start = threads.getCurrentThreadCpuTime();
            exact.bulkScore(nodes, scores, nodes.length);
            return threads.getCurrentThreadCpuTime() - start;
        }
    }

    /**
     * Float32 search's own scorer, so exact walks of the float32 graph cost what its search does. Our
     * index's stored floats are not a Lucene index slice, so on our graph it falls back to copying
     * each vector: those walks' times are not a search's.
     */
    private static RandomVectorScorer exactScorer(Index index, float[] query) throws IOException {
        return FlatVectorScorerUtil.getLucene99FlatVectorsScorer()
                .getRandomVectorScorer(VectorSimilarityFunction.DOT_PRODUCT, index.floats.copy(), query);
    }

    /** Exact scores of every node, computed now; the scorer only reads them. */
    private static RandomVectorScorer precomputed(Index index, float[] query) throws IOException {
        RandomVectorScorer exact = exactScorer(index, query);
        float[] scores = new float[exact.maxOrd()];
        for (int ord = 0; ord < scores.length; ord++) {
            scores[ord] = exact.score(ord);
        }
        return new RandomVectorScorer() {
            @Override
            public float score(int node) {
                return scores[node];
            }

            @Override
            public int maxOrd() {
                return scores.length;
            }
        };
    }

    /** {@code scorer} seen through {@code toOrd} (null: the same ordinals). */
    private static RandomVectorScorer translated(RandomVectorScorer scorer, int[] toOrd) {
        if (toOrd == null) {
            return scorer;
        }
        return new RandomVectorScorer() {
            @Override
            public float score(int node) throws IOException {
                return scorer.score(toOrd[node]);
            }

            @Override
            public int maxOrd() {
                return toOrd.length;
            }
        };
    }

    /** For each ordinal of {@code from}, the ordinal of {@code to} holding the same corpus vector. */
    private static int[] ordinalMap(Index from, Index to) {
        int[] ordOfId = new int[to.ids.length];
        for (int ord = 0; ord < to.ids.length; ord++) {
            ordOfId[to.ids[ord]] = ord;
        }
        return IntStream.range(0, from.ids.length)
                .map(ord -> ordOfId[from.ids[ord]])
                .toArray();
    }

    /** A kept index's one segment: its graph, float vectors and, per ordinal, the corpus id. */
    private static final class Index implements AutoCloseable {
        final String name;
        final Directory dir;
        final DirectoryReader reader;
        final SegmentReader segment;
        final HnswGraph graph;
        final KnnVectorsReader vectors;
        final FloatVectorValues floats;
        final int[] ids;

        private Index(String name, Directory dir) throws IOException {
            this.name = name;
            this.dir = dir;
            this.reader = DirectoryReader.open(dir);
            if (reader.leaves().size() != 1 || reader.hasDeletions()) {
                throw new IllegalStateException(
                        name + ": the walk needs one segment without deletions, as the codec run leaves it");
            }
            this.segment = (SegmentReader) reader.leaves().get(0).reader();
            this.vectors = ((PerFieldKnnVectorsFormat.FieldsReader) segment.getVectorReader()).getFieldReader(FIELD);
            this.graph = ((HnswGraphProvider) vectors).getGraph(FIELD);
            this.floats = vectors.getFloatVectorValues(FIELD);
            // one segment without deletions: ordinal = doc
            this.ids = FormatComparison.storedIds(reader);
        }

        static Index open(BenchData set, String name) throws IOException {
            if (System.getProperty("bench.index.dir") == null) {
                throw new IllegalStateException("walk reads indexes kept by a codec run: set -Dbench.index.dir");
            }
            BuiltIndex built = BuiltIndex.of(set, name);
            if (built.seconds() == null) {
                throw new IllegalStateException("walk reads the " + name + " index of [" + set.name()
                        + "] kept by a codec run: run `bench/run <mode> codec` with "
                        + "-Dbench.index.dir (and the same -Dbench.synthetic.docs) first");
            }
            return new Index(name, FSDirectory.open(built.path()));
        }

        /** Our codes, read by the flat format under the per-field format's segment suffix. */
        BinaryFlatVectorsReader codesReader() throws IOException {
            FieldInfo field = segment.getFieldInfos().fieldInfo(FIELD);
            String suffix = field.getAttribute(PerFieldKnnVectorsFormat.PER_FIELD_FORMAT_KEY) + "_"
                    + field.getAttribute(PerFieldKnnVectorsFormat.PER_FIELD_SUFFIX_KEY);
            SegmentReadState state = new SegmentReadState(
                    dir, segment.getSegmentInfo().info, segment.getFieldInfos(), IOContext.DEFAULT, suffix);
            return new BinaryFlatVectorsFormat(BinaryCodeOptions.DEFAULT).fieldsReader(state);
        }

        @Override
        public void close() throws IOException {
            IOUtils.close(reader, dir);
        }
    }
}
