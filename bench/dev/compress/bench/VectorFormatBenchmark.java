package dev.compress.bench;

import dev.compress.codec.HnswParameters;
import dev.compress.codec.binary.BinaryCodeOptions;
import dev.compress.codec.binary.BinaryHnswVectorsFormat;
import dev.compress.codec.floats.FloatHnswVectorsFormat;
import dev.compress.codec.search.RescoringKnnQuery;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.apache.lucene.codecs.KnnVectorsFormat;
import org.apache.lucene.codecs.lucene104.Lucene104HnswScalarQuantizedVectorsFormat;
import org.apache.lucene.codecs.lucene99.Lucene99HnswVectorsFormat;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.KnnFloatVectorField;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.index.TieredMergePolicy;
import org.apache.lucene.index.VectorSimilarityFunction;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.tests.util.TestUtil;
import org.apache.lucene.util.IOUtils;
import org.apache.lucene.codecs.lucene104.Lucene104ScalarQuantizedVectorsFormat.ScalarEncoding;

/**
 * Side-by-side benchmark of vector formats on the same vectors, k = 10, one search thread.
 *
 * <p>Every index is built single-threaded, force-merged to one segment (so the measured graph is
 * a merged one) and searched with {@link RescoringKnnQuery}, which gathers {@code k x oversample}
 * candidates from the graph and, when rescoring, reorders them with the stored float vectors: the
 * same candidate budget for every format. Prints one Markdown table per data set.
 *
 * <p>Run (see the codec report for the exact command): system properties {@code
 * compress.data.dir} (default {@code ../shared/data}), {@code bench.synthetic.docs} (default
 * 100000, 0 to skip), {@code bench.synthetic.queries} (default 1000).
 */
public final class VectorFormatBenchmark {

  private static final String FIELD = "v";
  private static final int K = 10;
  private static final int WARMUP_ROUNDS = 3;
  private static final HnswParameters GRAPH = new HnswParameters(16, 100);

  /** An index to build. */
  private record IndexSpec(String name, KnnVectorsFormat format) {}

  /** A way to search an index. */
  private record SearchSpec(String index, float oversample, boolean rescore) {}

  private static final List<IndexSpec> INDEXES =
      List.of(
          new IndexSpec("Lucene float32 HNSW", new Lucene99HnswVectorsFormat(GRAPH.m(), GRAPH.beamWidth())),
          new IndexSpec(
              "Lucene 1-bit OSQ",
              new Lucene104HnswScalarQuantizedVectorsFormat(
                  ScalarEncoding.SINGLE_BIT_QUERY_NIBBLE, GRAPH.m(), GRAPH.beamWidth())),
          new IndexSpec("ours binary centred", new BinaryHnswVectorsFormat(GRAPH, new BinaryCodeOptions(true, true))),
          new IndexSpec("ours binary uncentred", new BinaryHnswVectorsFormat(GRAPH, new BinaryCodeOptions(true, false))),
          new IndexSpec("ours binary codes-only", new BinaryHnswVectorsFormat(GRAPH, new BinaryCodeOptions(false, true))),
          new IndexSpec("ours float32", new FloatHnswVectorsFormat(GRAPH)));

  private static final List<SearchSpec> SEARCHES =
      List.of(
          new SearchSpec("Lucene float32 HNSW", 1, false),
          new SearchSpec("Lucene float32 HNSW", 5, false),
          new SearchSpec("Lucene 1-bit OSQ", 3, true),
          new SearchSpec("Lucene 1-bit OSQ", 5, true),
          new SearchSpec("ours binary centred", 3, true),
          new SearchSpec("ours binary centred", 5, true),
          new SearchSpec("ours binary centred", 5, false),
          new SearchSpec("ours binary uncentred", 3, true),
          new SearchSpec("ours binary uncentred", 5, true),
          new SearchSpec("ours binary codes-only", 5, true),
          new SearchSpec("ours binary codes-only", 5, false),
          new SearchSpec("ours float32", 1, false),
          new SearchSpec("ours float32", 5, false));

  private VectorFormatBenchmark() {}

  public static void main(String[] args) throws IOException {
    Path data = Path.of(System.getProperty("compress.data.dir", "../shared/data"));
    int syntheticDocs = Integer.getInteger("bench.synthetic.docs", 100_000);
    int syntheticQueries = Integer.getInteger("bench.synthetic.queries", 1_000);
    List<BenchData> sets = new ArrayList<>();
    sets.add(
        BenchData.beir(
            "scifact bge-small-en-v1.5 (5,183 x 384)",
            data.resolve("embeddings/scifact/bge-small-en-v1.5"),
            data.resolve("beir/scifact/qrels/test.tsv")));
    if (syntheticDocs > 0) {
      sets.add(BenchData.synthetic(syntheticDocs, syntheticQueries, 384, 42));
    }
    for (BenchData set : sets) {
      run(set);
    }
  }

  private static void run(BenchData set) throws IOException {
    System.out.printf(Locale.ROOT, "%n### %s, %d queries, k = %d%n%n", set.name(), set.queries().length, K);
    int[][] truth = ExactSearch.topK(set.corpus(), set.queries(), K);
    if (set.judgments().isEmpty() == false) {
      System.out.printf(Locale.ROOT, "exact float32 nDCG@10 on %d judged queries: %.4f%n%n", set.judgments().size(), ndcg(set, truth));
    }
    System.out.println(
        "| index | oversample | rescore | recall@10 | nDCG@10 | QPS | p50 ms | p99 ms | index s | bytes/vector on disk (by file) | graph+codes B/vec |");
    System.out.println("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |");
    for (IndexSpec spec : INDEXES) {
      Path path = Files.createTempDirectory("bench-");
      try (Directory dir = FSDirectory.open(path)) {
        long start = System.nanoTime();
        build(dir, spec.format(), set.corpus());
        double indexSeconds = (System.nanoTime() - start) / 1e9;
        Map<String, Long> bytes = bytesByExtension(path);
        try (DirectoryReader reader = DirectoryReader.open(dir)) {
          int[] idOf = storedIds(reader);
          IndexSearcher searcher = new IndexSearcher(reader);
          searcher.setQueryCache(null);
          for (SearchSpec search : SEARCHES) {
            if (search.index().equals(spec.name())) {
              measure(set, truth, searcher, idOf, spec, search, indexSeconds, bytes);
            }
          }
        }
      } finally {
        IOUtils.rm(path);
      }
    }
  }

  private static void build(Directory dir, KnnVectorsFormat format, float[][] corpus) throws IOException {
    TieredMergePolicy mergePolicy = new TieredMergePolicy();
    mergePolicy.setNoCFSRatio(0);
    IndexWriterConfig config =
        new IndexWriterConfig()
            .setCodec(TestUtil.alwaysKnnVectorsFormat(format))
            .setUseCompoundFile(false)
            .setMergePolicy(mergePolicy)
            .setRAMBufferSizeMB(256);
    try (IndexWriter writer = new IndexWriter(dir, config)) {
      for (int id = 0; id < corpus.length; id++) {
        Document doc = new Document();
        doc.add(new StoredField("id", id));
        doc.add(new KnnFloatVectorField(FIELD, corpus[id], VectorSimilarityFunction.DOT_PRODUCT));
        writer.addDocument(doc);
      }
      writer.forceMerge(1);
    }
  }

  private static void measure(
      BenchData set,
      int[][] truth,
      IndexSearcher searcher,
      int[] idOf,
      IndexSpec spec,
      SearchSpec search,
      double indexSeconds,
      Map<String, Long> bytes)
      throws IOException {
    float[][] queries = set.queries();
    // Warm-up, untimed: every query WARMUP_ROUNDS times, so that the JIT has compiled this
    // format's search path whatever ran before it.
    for (int round = 0; round < WARMUP_ROUNDS; round++) {
      for (float[] query : queries) {
        searcher.search(new RescoringKnnQuery(FIELD, query, K, search.oversample(), null, search.rescore()), K);
      }
    }
    long[] nanos = new long[queries.length];
    int[][] results = new int[queries.length][];
    for (int q = 0; q < queries.length; q++) {
      RescoringKnnQuery query = new RescoringKnnQuery(FIELD, queries[q], K, search.oversample(), null, search.rescore());
      long start = System.nanoTime();
      TopDocs hits = searcher.search(query, K);
      nanos[q] = System.nanoTime() - start;
      results[q] = Arrays.stream(hits.scoreDocs).mapToInt(hit -> idOf[hit.doc]).toArray();
    }
    double recall = 0;
    for (int q = 0; q < queries.length; q++) {
      recall += ExactSearch.recall(truth[q], results[q]);
    }
    recall /= queries.length;
    String ndcg = set.judgments().isEmpty() ? "-" : String.format(Locale.ROOT, "%.4f", ndcg(set, results));
    long total = Arrays.stream(nanos).sum();
    long[] sorted = nanos.clone();
    Arrays.sort(sorted);
    int n = set.corpus().length;
    long graphAndCodes = bytes.getOrDefault("vex", 0L) + bytes.getOrDefault("vbc", 0L) + bytes.getOrDefault("veq", 0L);
    System.out.printf(
        Locale.ROOT,
        "| %s | %s | %s | %.4f | %s | %.0f | %.3f | %.3f | %.1f | %s | %.1f |%n",
        spec.name(),
        search.oversample() == 1 ? "1 (k = 10)" : String.format(Locale.ROOT, "%.0f", search.oversample()),
        search.rescore() ? "yes" : "no",
        recall,
        ndcg,
        queries.length / (total / 1e9),
        sorted[sorted.length / 2] / 1e6,
        sorted[(int) Math.ceil(sorted.length * 0.99) - 1] / 1e6,
        indexSeconds,
        perVector(bytes, n),
        graphAndCodes / (double) n);
  }

  private static double ndcg(BenchData set, int[][] rankings) {
    double sum = 0;
    for (Map.Entry<Integer, Map<Integer, Integer>> judged : set.judgments().entrySet()) {
      sum += ExactSearch.ndcg(rankings[judged.getKey()], judged.getValue(), K);
    }
    return sum / set.judgments().size();
  }

  private static int[] storedIds(DirectoryReader reader) throws IOException {
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
    long total = 0;
    for (Map.Entry<String, Long> e : bytes.entrySet()) {
      total += e.getValue();
      double per = e.getValue() / (double) n;
      if (per >= 0.05) {
        out.append(String.format(Locale.ROOT, "%s %.1f, ", e.getKey(), per));
      }
    }
    return out.append(String.format(Locale.ROOT, "total %.1f", total / (double) n)).toString();
  }
}
