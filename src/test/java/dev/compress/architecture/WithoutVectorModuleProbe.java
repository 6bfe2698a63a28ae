package dev.compress.architecture;

import dev.compress.codec.HnswParameters;
import dev.compress.codec.binary.BinaryCodeOptions;
import dev.compress.codec.binary.BinaryHnswVectorsFormat;
import dev.compress.codec.search.RescoringKnnQuery;
import dev.compress.training.data.VectorSet;
import dev.compress.training.trainer.PcaTrainer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.stream.IntStream;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.KnnFloatVectorField;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.VectorSimilarityFunction;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.tests.util.TestUtil;
import org.apache.lucene.util.VectorUtil;

/**
 * What {@link WithoutVectorModuleTests} runs in a JVM of its own: a rescored search of a binary field
 * (its floats decoded, coarsely bounded and scored exactly) and a corpus PCA (its covariance), the
 * code paths that take the Vector API where the JVM has it. Prints whether this JVM has the module,
 * the search's agreement with exact search, and the PCA's intrinsic dimension.
 */
public final class WithoutVectorModuleProbe {

    private static final int DOCS = 300;
    private static final int DIMS = 48;
    private static final int K = 10;

    private WithoutVectorModuleProbe() {}

    public static void main(String[] args) throws Exception {
        System.out.println("module="
                + ModuleLayer.boot().findModule("jdk.incubator.vector").isPresent());
        float[][] vectors = vectors(new Random(11));
        System.out.println("rescored_equals_exact=" + rescoredEqualsExact(vectors));
        System.out.println("intrinsic_dimension=" + intrinsicDimension(vectors));
    }

    /** Whether every query's rescored top k, over candidates that cover the whole index, is the exact top k. */
    static boolean rescoredEqualsExact(float[][] vectors) throws Exception {
        Path dir = Files.createTempDirectory("without-vector-module");
        try (Directory directory = FSDirectory.open(dir)) {
            IndexWriterConfig config = new IndexWriterConfig()
                    .setCodec(TestUtil.alwaysKnnVectorsFormat(new BinaryHnswVectorsFormat(
                            new HnswParameters(16, 100), new BinaryCodeOptions(true, true))));
            try (IndexWriter writer = new IndexWriter(directory, config)) {
                for (int id = 0; id < vectors.length; id++) {
                    Document doc = new Document();
                    doc.add(new StoredField("id", id));
                    doc.add(new KnnFloatVectorField("v", vectors[id], VectorSimilarityFunction.DOT_PRODUCT));
                    writer.addDocument(doc);
                }
                writer.forceMerge(1);
            }
            try (DirectoryReader reader = DirectoryReader.open(directory)) {
                IndexSearcher searcher = new IndexSearcher(reader);
                for (int q = 0; q < 20; q++) {
                    float[] query = vectors[q];
                    ScoreDoc[] hits = searcher.search(
                                    new RescoringKnnQuery("v", query, K, DOCS / (float) K, null, true), K)
                            .scoreDocs;
                    int[] exact = IntStream.range(0, vectors.length)
                            .boxed()
                            .sorted(Comparator.comparingDouble(d -> -exactDot(query, vectors[d])))
                            .limit(K)
                            .mapToInt(Integer::intValue)
                            .toArray();
                    for (int i = 0; i < K; i++) {
                        int id = searcher.storedFields()
                                .document(hits[i].doc)
                                .getField("id")
                                .numericValue()
                                .intValue();
                        if (id != exact[i]) {
                            return false;
                        }
                    }
                }
            }
        } finally {
            try (var files = Files.list(dir)) {
                for (Path f : files.toList()) {
                    Files.delete(f);
                }
            }
            Files.delete(dir);
        }
        return true;
    }

    static int intrinsicDimension(float[][] vectors) {
        List<String> ids =
                IntStream.range(0, vectors.length).mapToObj(i -> "d" + i).toList();
        return PcaTrainer.intrinsicDimension(VectorSet.ofRows(ids, vectors), 0.95);
    }

    /** Unit vectors spread over a few directions, so that the PCA has structure to find. */
    static float[][] vectors(Random random) {
        float[][] basis = new float[6][DIMS];
        for (float[] b : basis) {
            for (int j = 0; j < DIMS; j++) {
                b[j] = (float) random.nextGaussian();
            }
        }
        float[][] vectors = new float[DOCS][DIMS];
        for (float[] v : vectors) {
            for (int c = 0; c < basis.length; c++) {
                float weight = (float) (random.nextGaussian() / (1 + c));
                for (int j = 0; j < DIMS; j++) {
                    v[j] += weight * basis[c][j];
                }
            }
            for (int j = 0; j < DIMS; j++) {
                v[j] += (float) (0.1 * random.nextGaussian());
            }
            VectorUtil.l2normalize(v);
        }
        return vectors;
    }

    private static double exactDot(float[] a, float[] b) {
        double sum = 0;
        for (int i = 0; i < a.length; i++) {
            sum += (double) a[i] * b[i];
        }
        return sum;
    }
}
