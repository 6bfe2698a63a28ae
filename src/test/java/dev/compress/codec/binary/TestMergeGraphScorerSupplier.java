package dev.compress.codec.binary;

import java.io.IOException;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Random;
import java.util.stream.IntStream;
import org.apache.lucene.index.VectorSimilarityFunction;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.IOContext;
import org.apache.lucene.store.IndexInput;
import org.apache.lucene.store.IndexOutput;
import org.apache.lucene.tests.util.LuceneTestCase;
import org.apache.lucene.util.VectorUtil;
import org.apache.lucene.util.hnsw.UpdateableRandomVectorScorer;

/**
 * The merge's graph scorer takes a node as the query a search would make of its float vector: its
 * scores equal {@link SignCodeEstimator}'s, through the stored query records, alone or in batches.
 */
public class TestMergeGraphScorerSupplier extends LuceneTestCase {

    public void testScoresEqualTheSearchEstimateOfTheNodesVector() throws IOException {
        Random random = random();
        for (int dims : new int[] {1, 63, 64, 65, 384, 1 + random.nextInt(1000)}) {
            VectorSimilarityFunction similarity =
                    VectorSimilarityFunction.values()[random.nextInt(VectorSimilarityFunction.values().length)];
            float[][] docs = docs(random, 2 + random.nextInt(40), dims, similarity);
            float[] centroid = centroid(docs, similarity);
            withMergeFiles(docs, centroid, similarity, (codes, queriesIn) -> {
                MergeGraphScorerSupplier supplier = new MergeGraphScorerSupplier(codes, queriesIn);
                UpdateableRandomVectorScorer scorer = supplier.scorer();
                UpdateableRandomVectorScorer copied = supplier.copy().scorer();
                for (int round = 0; round < 2 * docs.length; round++) {
                    int node = random.nextInt(docs.length);
                    scorer.setScoringOrdinal(node);
                    copied.setScoringOrdinal(node);
                    SignCodeEstimator estimator = new SignCodeEstimator(docs[node], centroid, similarity);
                    int[] others = IntStream.range(0, 1 + random.nextInt(docs.length))
                            .map(i -> random.nextInt(docs.length))
                            .toArray();
                    float[] bulk = new float[others.length];
                    float max = scorer.bulkScore(others, bulk, others.length);
                    float expectedMax = Float.NEGATIVE_INFINITY;
                    for (int i = 0; i < others.length; i++) {
                        int ord = others[i];
                        float expected = estimator.score(
                                estimator.quantizedSignDot(codes.codeWords(ord)), codes.corrections(ord));
                        assertEquals("dims " + dims + " " + similarity, expected, scorer.score(ord), 0f);
                        assertEquals(expected, copied.score(ord), 0f);
                        assertEquals(expected, bulk[i], 0f);
                        expectedMax = Math.max(expectedMax, expected);
                    }
                    assertEquals(expectedMax, max, 0f);
                }
            });
        }
    }

    /**
     * On vectors of varied length the estimate ranks a node's true nearest neighbours far better
     * than the Hamming distance between codes, which cannot see lengths (why merges build with it).
     */
    public void testRanksNeighboursBetterThanHamming() throws IOException {
        Random random = random();
        int dims = 384;
        VectorSimilarityFunction similarity = VectorSimilarityFunction.MAXIMUM_INNER_PRODUCT;
        float[][] docs = docs(random, 400, dims, similarity);
        float[] centroid = centroid(docs, similarity);
        withMergeFiles(docs, centroid, similarity, (codes, queriesIn) -> {
            UpdateableRandomVectorScorer estimate = new MergeGraphScorerSupplier(codes, queriesIn).scorer();
            UpdateableRandomVectorScorer hamming = new BinaryFlatVectorsScorer(null)
                    .getRandomVectorScorerSupplier(similarity, codes)
                    .scorer();
            double estimateRecall = 0, hammingRecall = 0;
            int nodes = 40;
            for (int node = 0; node < nodes; node++) {
                final int q = node;
                int[] truth = top10(docs.length, q, ord -> VectorUtil.dotProduct(docs[q], docs[ord]));
                estimate.setScoringOrdinal(q);
                hamming.setScoringOrdinal(q);
                estimateRecall += overlap(truth, top10(docs.length, q, ord -> score(estimate, ord)));
                hammingRecall += overlap(truth, top10(docs.length, q, ord -> score(hamming, ord)));
            }
            estimateRecall /= nodes;
            hammingRecall /= nodes;
            assertTrue(
                    "estimate " + estimateRecall + " vs Hamming " + hammingRecall,
                    estimateRecall > hammingRecall + 0.1);
        });
    }

    private interface MergeFilesTest {
        void run(BinarizedVectorValues codes, IndexInput queries) throws IOException;
    }

    /** Runs {@code test} over the codes and the query records a merge writes for {@code docs}. */
    private static void withMergeFiles(
            float[][] docs, float[] centroid, VectorSimilarityFunction similarity, MergeFilesTest test)
            throws IOException {
        try (Directory dir = newDirectory()) {
            write(dir, docs, centroid, similarity);
            try (IndexInput codesIn = dir.openInput("codes", IOContext.DEFAULT);
                    IndexInput queriesIn = dir.openInput("queries", IOContext.DEFAULT)) {
                int dims = centroid.length;
                test.run(
                        new OffHeapBinarizedVectorValues.Dense(
                                dims, docs.length, centroid, new float[dims], similarity, codesIn),
                        queriesIn);
            }
        }
    }

    private interface OrdScore {
        float score(int ord);
    }

    private static float score(UpdateableRandomVectorScorer scorer, int ord) {
        try {
            return scorer.score(ord);
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    private static int[] top10(int size, int exclude, OrdScore score) {
        return IntStream.range(0, size)
                .filter(ord -> ord != exclude)
                .boxed()
                .sorted(Comparator.comparingDouble(ord -> -score.score(ord)))
                .limit(10)
                .mapToInt(Integer::intValue)
                .toArray();
    }

    private static double overlap(int[] truth, int[] found) {
        return Arrays.stream(found)
                        .filter(f -> Arrays.stream(truth).anyMatch(t -> t == f))
                        .count()
                / (double) truth.length;
    }

    /** Clustered vectors; unit length where the similarity wants it, lengths from 0.5 to 2 otherwise. */
    private static float[][] docs(Random random, int count, int dims, VectorSimilarityFunction similarity) {
        float[][] centres = new float[8][dims];
        for (float[] centre : centres) {
            for (int i = 0; i < dims; i++) {
                centre[i] = (float) random.nextGaussian();
            }
        }
        float[][] docs = new float[count][dims];
        for (float[] doc : docs) {
            float[] centre = centres[random.nextInt(centres.length)];
            for (int i = 0; i < dims; i++) {
                doc[i] = centre[i] + 0.7f * (float) random.nextGaussian();
            }
            float scale = similarity == VectorSimilarityFunction.DOT_PRODUCT ? 1f : 0.5f + 1.5f * random.nextFloat();
            float norm = (float) Math.sqrt(VectorUtil.dotProduct(doc, doc));
            for (int i = 0; i < dims; i++) {
                doc[i] *= scale / norm;
            }
        }
        return docs;
    }

    private static float[] centroid(float[][] docs, VectorSimilarityFunction similarity) {
        int dims = docs[0].length;
        float[] centroid = new float[dims];
        float[] scratch = new float[dims];
        for (float[] doc : docs) {
            float[] prepared = SignBinarizer.prepare(doc, similarity, scratch);
            for (int i = 0; i < dims; i++) {
                centroid[i] += prepared[i] / docs.length;
            }
        }
        return centroid;
    }

    /** The two files a merge writes: code records (as the data file has them) and query records. */
    private static void write(Directory dir, float[][] docs, float[] centroid, VectorSimilarityFunction similarity)
            throws IOException {
        int dims = centroid.length;
        byte[] code = new byte[SignBinarizer.codeBytes(dims)];
        float[] corrections = new float[SignBinarizer.CORRECTIONS];
        byte[] padding = new byte[SignBinarizer.recordBytes(dims) - code.length - corrections.length * Float.BYTES];
        try (IndexOutput codes = dir.createOutput("codes", IOContext.DEFAULT);
                IndexOutput queries = dir.createOutput("queries", IOContext.DEFAULT)) {
            for (float[] doc : docs) {
                float[] prepared = SignBinarizer.prepare(doc, similarity, new float[dims]);
                SignBinarizer.binarize(prepared, centroid, code);
                SignBinarizer.corrections(prepared, centroid, corrections);
                codes.writeBytes(code, code.length);
                for (float c : corrections) {
                    codes.writeInt(Float.floatToIntBits(c));
                }
                codes.writeBytes(padding, padding.length);
                new SignCodeEstimator(doc, centroid, similarity).quantized().write(queries);
            }
        }
    }
}
