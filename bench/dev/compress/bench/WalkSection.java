package dev.compress.bench;

import static dev.compress.bench.VectorFormatBenchmark.FIELD;
import static dev.compress.bench.VectorFormatBenchmark.K;
import static dev.compress.bench.VectorFormatBenchmark.LUCENE_FLOAT;
import static dev.compress.bench.VectorFormatBenchmark.OURS_BINARY;

import dev.compress.codec.binary.BinaryCodeOptions;
import dev.compress.codec.binary.BinaryFlatVectorsFormat;
import java.io.IOException;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.apache.lucene.codecs.KnnVectorsReader;
import org.apache.lucene.codecs.hnsw.DefaultFlatVectorScorer;
import org.apache.lucene.codecs.hnsw.FlatVectorsReader;
import org.apache.lucene.codecs.hnsw.HnswGraphProvider;
import org.apache.lucene.codecs.perfield.PerFieldKnnVectorsFormat;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.FieldInfo;
import org.apache.lucene.index.FloatVectorValues;
import org.apache.lucene.index.SegmentReadState;
import org.apache.lucene.index.SegmentReader;
import org.apache.lucene.index.VectorSimilarityFunction;
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
 * vectors) and once with the estimate our search uses (4-bit query against sign codes), for a
 * range of beam widths. Every beam is then reranked exactly, as rescoring does, so recall@10 says
 * what the walk found and {@code visited} what it cost: the graphs' quality and the estimate's
 * are measured apart.
 *
 * <p>It reads the synthetic set's float32 and binary indexes an earlier {@code codec} run kept
 * under {@code -Dbench.index.dir} (same {@code -Dbench.synthetic.docs}); each is one segment after
 * that run's force-merge.
 */
final class WalkSection implements BenchSection {

  private static final int[] BEAMS = {30, 50, 80, 120, 160, 240};

  @Override
  public String name() {
    return "walk";
  }

  @Override
  public List<ResultTable> run(BenchMode mode) throws Exception {
    BenchData set = CodecSection.syntheticSet(mode);
    int[][] truth = ExactSearch.topK(set.corpus(), set.queries(), K);
    try (Index floats = Index.open(set, LUCENE_FLOAT);
        Index ours = Index.open(set, OURS_BINARY);
        FlatVectorsReader codes = ours.codesReader()) {
      ResultTable table =
          new ResultTable(
              set.name() + ": graph walks with exact and estimated scores, each beam reranked exactly",
              List.of("graph", "walk", "beam", "visited_per_query", "recall@10"));
      for (Index graph : List.of(floats, ours)) {
        // our codes are in our index's ordinal order; the float32 graph's nodes map to them by id
        int[] toCodeOrd = graph == ours ? null : ordinalMap(graph, ours);
        walk(table, set, truth, graph, "exact", q -> exactScorer(graph, q));
        walk(table, set, truth, graph, "4-bit query estimate", q -> translated(codes.getRandomVectorScorer(FIELD, q), toCodeOrd));
      }
      table.note(
          "Lucene's HnswGraphSearcher on each index's one graph, k = beam; recall@10 after reranking the beam with exact dot products. "
              + "A flushed segment's graph is built on exact similarities, a merged one's on each format's own scores.");
      return List.of(table);
    }
  }

  @FunctionalInterface
  private interface ScorerFactory {
    RandomVectorScorer scorer(float[] query) throws IOException;
  }

  private static void walk(ResultTable table, BenchData set, int[][] truth, Index graph, String walk, ScorerFactory scorers)
      throws IOException {
    float[][] queries = set.queries();
    for (int beam : BEAMS) {
      long visited = 0;
      double recall = 0;
      for (int q = 0; q < queries.length; q++) {
        TopKnnCollector collector = new TopKnnCollector(beam, Integer.MAX_VALUE);
        HnswGraphSearcher.search(scorers.scorer(queries[q]), collector, graph.graph, null);
        visited += collector.visitedCount();
        float[] query = queries[q];
        int[] reranked =
            Arrays.stream(collector.topDocs().scoreDocs)
                .mapToInt(hit -> graph.ids[hit.doc])
                .boxed()
                .sorted(Comparator.comparingDouble(id -> -VectorUtil.dotProduct(query, set.corpus()[id])))
                .limit(K)
                .mapToInt(Integer::intValue)
                .toArray();
        recall += ExactSearch.recall(truth[q], reranked);
      }
      Map<String, Object> row = new LinkedHashMap<>();
      row.put("graph", graph.name);
      row.put("walk", walk);
      row.put("beam", beam);
      row.put("visited_per_query", visited / (double) queries.length);
      row.put("recall@10", recall / queries.length);
      table.add(row);
    }
  }

  private static RandomVectorScorer exactScorer(Index index, float[] query) throws IOException {
    return DefaultFlatVectorScorer.INSTANCE.getRandomVectorScorer(VectorSimilarityFunction.DOT_PRODUCT, index.floats.copy(), query);
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
    return IntStream.range(0, from.ids.length).map(ord -> ordOfId[from.ids[ord]]).toArray();
  }

  /** A kept index's one segment: its graph, float vectors and, per ordinal, the corpus id. */
  private static final class Index implements AutoCloseable {
    final String name;
    final Directory dir;
    final DirectoryReader reader;
    final SegmentReader segment;
    final HnswGraph graph;
    final FloatVectorValues floats;
    final int[] ids;

    private Index(String name, Directory dir) throws IOException {
      this.name = name;
      this.dir = dir;
      this.reader = DirectoryReader.open(dir);
      if (reader.leaves().size() != 1 || reader.hasDeletions()) {
        throw new IllegalStateException(name + ": the walk needs one segment without deletions, as the codec run leaves it");
      }
      this.segment = (SegmentReader) reader.leaves().get(0).reader();
      KnnVectorsReader vectors = ((PerFieldKnnVectorsFormat.FieldsReader) segment.getVectorReader()).getFieldReader(FIELD);
      this.graph = ((HnswGraphProvider) vectors).getGraph(FIELD);
      this.floats = vectors.getFloatVectorValues(FIELD);
      // one segment without deletions: ordinal = doc
      this.ids = VectorFormatBenchmark.storedIds(reader);
    }

    static Index open(BenchData set, String name) throws IOException {
      if (System.getProperty("bench.index.dir") == null) {
        throw new IllegalStateException("walk reads indexes kept by a codec run: set -Dbench.index.dir");
      }
      BuiltIndex built = BuiltIndex.of(set, name);
      if (built.seconds() == null) {
        throw new IllegalStateException(
            "walk reads the " + name + " index of [" + set.name() + "] kept by a codec run: run `bench/run <mode> codec` with "
                + "-Dbench.index.dir (and the same -Dbench.synthetic.docs) first");
      }
      return new Index(name, FSDirectory.open(built.path()));
    }

    /** Our codes, read by the flat format under the per-field format's segment suffix. */
    FlatVectorsReader codesReader() throws IOException {
      FieldInfo field = segment.getFieldInfos().fieldInfo(FIELD);
      String suffix =
          field.getAttribute(PerFieldKnnVectorsFormat.PER_FIELD_FORMAT_KEY) + "_" + field.getAttribute(PerFieldKnnVectorsFormat.PER_FIELD_SUFFIX_KEY);
      SegmentReadState state = new SegmentReadState(dir, segment.getSegmentInfo().info, segment.getFieldInfos(), IOContext.DEFAULT, suffix);
      return new BinaryFlatVectorsFormat(BinaryCodeOptions.DEFAULT).fieldsReader(state);
    }

    @Override
    public void close() throws IOException {
      IOUtils.close(reader, dir);
    }
  }
}
