package dev.compress.bench;

import dev.compress.codec.HnswParameters;
import dev.compress.codec.binary.BinaryCodeOptions;
import dev.compress.codec.binary.BinaryHnswVectorsFormat;
import dev.compress.codec.floats.FloatHnswVectorsFormat;
import dev.compress.codec.search.RescoringKnnQuery;
import dev.compress.harness.BenchData;
import dev.compress.training.mask.DimensionMasks;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import org.apache.lucene.codecs.KnnVectorsFormat;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.KnnFloatVectorField;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.VectorSimilarityFunction;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.tests.util.TestUtil;
import org.apache.lucene.util.IOUtils;

/**
 * Masked kNN search on the codec (scifact, bge-small, single merged segment) as {@code compressed_knn}
 * runs it, with the dropped dimensions zeroed: recall@10 against brute-force masked scoring, nDCG@10
 * of the judged test queries and p50 latency, for the norm and DIME-PRF masks at 30% of the
 * dimensions and for the full query. Run:
 *
 * <pre>java -cp target/test-classes:target/classes:$(cat target/test.classpath) dev.compress.bench.MaskedSearchMain</pre>
 */
public final class MaskedSearchMain {

    private static final String FIELD = "v";
    private static final int K = 10;
    private static final double RATIO = 0.3;

    private MaskedSearchMain() {}

    public static void main(String[] args) throws IOException {
        Path data = Path.of(System.getProperty("compress.data.dir", "../shared/data"));
        BenchData set = BenchData.beir(
                "scifact bge-small-en-v1.5",
                data.resolve("embeddings/scifact/bge-small-en-v1.5"),
                data.resolve("beir/scifact/qrels/test.tsv"));
        int[] judged = set.judgments().keySet().stream()
                .mapToInt(Integer::intValue)
                .sorted()
                .toArray();
        float[][] queries =
                Arrays.stream(judged).mapToObj(q -> set.queries()[q]).toArray(float[][]::new);
        int dim = queries[0].length;
        int keep = DimensionMasks.keep(dim, RATIO);
        int[][] firstPass = set.exactTopK(queries, 1);
        Map<String, float[][]> masks = new LinkedHashMap<>();
        masks.put("none", queries);
        masks.put(
                "norm",
                Arrays.stream(queries)
                        .map(q -> DimensionMasks.apply(q, DimensionMasks.norm(q, keep)))
                        .toArray(float[][]::new));
        float[][] dime = new float[queries.length][];
        for (int i = 0; i < queries.length; i++) {
            dime[i] = DimensionMasks.apply(
                    queries[i],
                    DimensionMasks.dimePrf(queries[i], new float[][] {set.corpus()[firstPass[i][0]]}, keep));
        }
        masks.put("dime_prf", dime);

        Map<String, KnnVectorsFormat> formats = new LinkedHashMap<>();
        formats.put(
                "binary (floats kept)", new BinaryHnswVectorsFormat(HnswParameters.DEFAULT, BinaryCodeOptions.DEFAULT));
        formats.put(
                "binary (codes only)",
                new BinaryHnswVectorsFormat(HnswParameters.DEFAULT, new BinaryCodeOptions(false, true)));
        formats.put("float", new FloatHnswVectorsFormat());
        System.out.printf(
                Locale.ROOT,
                "%s, %d judged queries, masks keep %d of %d dimensions, k = %d%n%n",
                set.name(),
                queries.length,
                keep,
                dim,
                K);
        System.out.println(
                "| field | mask | candidates | rescored | recall@10 vs exact masked | nDCG@10 | exact masked nDCG@10 | p50 ms |");
        System.out.println("| --- | --- | --- | --- | --- | --- | --- | --- |");
        for (Map.Entry<String, KnnVectorsFormat> format : formats.entrySet()) {
            Path path = Files.createTempDirectory("bench-mask-");
            try (Directory dir = FSDirectory.open(path)) {
                build(dir, format.getValue(), set.corpus());
                try (DirectoryReader reader = DirectoryReader.open(dir)) {
                    IndexSearcher searcher = new IndexSearcher(reader);
                    searcher.setQueryCache(null);
                    int[] idOf = FormatComparison.storedIds(reader);
                    boolean binary = format.getKey().startsWith("binary");
                    for (Map.Entry<String, float[][]> mask : masks.entrySet()) {
                        float[][] masked = mask.getValue();
                        int[][] truth = set.exactTopK(masked, K);
                        double exactNdcg = ndcg(set, judged, truth);
                        if (binary) {
                            row(
                                    format.getKey(),
                                    mask.getKey(),
                                    1,
                                    false,
                                    searcher,
                                    idOf,
                                    masked,
                                    truth,
                                    set,
                                    judged,
                                    exactNdcg);
                            row(
                                    format.getKey(),
                                    mask.getKey(),
                                    3,
                                    true,
                                    searcher,
                                    idOf,
                                    masked,
                                    truth,
                                    set,
                                    judged,
                                    exactNdcg);
                            row(
                                    format.getKey(),
                                    mask.getKey(),
                                    5,
                                    true,
                                    searcher,
                                    idOf,
                                    masked,
                                    truth,
                                    set,
                                    judged,
                                    exactNdcg);
                        } else {
                            // num_candidates 100, compressed_knn's default on float fields
                            row(
                                    format.getKey(),
                                    mask.getKey(),
                                    10,
                                    false,
                                    searcher,
                                    idOf,
                                    masked,
                                    truth,
                                    set,
                                    judged,
                                    exactNdcg);
                        }
                    }
                }
            } finally {
                IOUtils.rm(path);
            }
        }
    }

    private static void row(
            String field,
            String maskName,
            float oversample,
            boolean rescore,
            IndexSearcher searcher,
            int[] idOf,
            float[][] queries,
            int[][] truth,
            BenchData set,
            int[] judged,
            double exactNdcg)
            throws IOException {
        int n = queries.length;
        for (int round = 0; round < 2; round++) {
            for (int i = 0; i < n; i++) {
                search(searcher, queries[i], oversample, rescore);
            }
        }
        long[] nanos = new long[n];
        int[][] found = new int[n][];
        double recall = 0;
        for (int i = 0; i < n; i++) {
            long start = System.nanoTime();
            TopDocs hits = search(searcher, queries[i], oversample, rescore);
            nanos[i] = System.nanoTime() - start;
            found[i] = Arrays.stream(hits.scoreDocs).mapToInt(h -> idOf[h.doc]).toArray();
            recall += BenchData.recall(truth[i], found[i]);
        }
        Arrays.sort(nanos);
        System.out.printf(
                Locale.ROOT,
                "| %s | %s | %s | %s | %.4f | %.4f | %.4f | %.3f |%n",
                field,
                maskName,
                oversample == 1 ? "k" : String.format(Locale.ROOT, "%.0fx", oversample),
                rescore ? "yes" : "no",
                recall / n,
                ndcg(set, judged, found),
                exactNdcg,
                nanos[n / 2] / 1e6);
    }

    private static TopDocs search(IndexSearcher searcher, float[] query, float oversample, boolean rescore)
            throws IOException {
        return searcher.search(new RescoringKnnQuery(FIELD, query, K, oversample, null, rescore), K);
    }

    private static double ndcg(BenchData set, int[] judged, int[][] rankings) {
        double sum = 0;
        for (int i = 0; i < judged.length; i++) {
            sum += set.ndcg(judged[i], rankings[i], K);
        }
        return sum / judged.length;
    }

    private static void build(Directory dir, KnnVectorsFormat format, float[][] corpus) throws IOException {
        IndexWriterConfig config = new IndexWriterConfig()
                .setCodec(TestUtil.alwaysKnnVectorsFormat(format))
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
}
