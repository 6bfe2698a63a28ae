package dev.compress.codec;

import dev.compress.codec.binary.BinarizedVectorValues;
import dev.compress.codec.binary.BinaryFlatVectorsScorer;
import dev.compress.codec.binary.CodeWords;
import dev.compress.codec.binary.SignBinarizer;
import dev.compress.codec.binary.SignCodeEstimator;
import java.io.IOException;
import java.util.Random;
import org.apache.lucene.codecs.hnsw.DefaultFlatVectorScorer;
import org.apache.lucene.index.VectorSimilarityFunction;
import org.apache.lucene.tests.util.LuceneTestCase;
import org.apache.lucene.util.VectorUtil;
import org.apache.lucene.util.hnsw.RandomVectorScorer;
import org.apache.lucene.util.hnsw.UpdateableRandomVectorScorer;

/** Property tests of the sign-code scorers against brute-force computations on random vectors. */
public class TestSignCodeScorers extends LuceneTestCase {

    private final BinaryFlatVectorsScorer scorer = new BinaryFlatVectorsScorer(DefaultFlatVectorScorer.INSTANCE);

    /** In-memory codes of {@code vectors}, binarised exactly as the format does. */
    private static final class Codes extends BinarizedVectorValues {
        final byte[][] codes;
        final float[][] corrections;
        final float[] centroid;
        final float[] scale;
        final VectorSimilarityFunction similarity;

        Codes(
                byte[][] codes,
                float[][] corrections,
                float[] centroid,
                float[] scale,
                VectorSimilarityFunction similarity) {
            this.codes = codes;
            this.corrections = corrections;
            this.centroid = centroid;
            this.scale = scale;
            this.similarity = similarity;
        }

        @Override
        public byte[] vectorValue(int ord) {
            return codes[ord];
        }

        @Override
        public float[] corrections(int ord) {
            return corrections[ord];
        }

        @Override
        public int dimension() {
            return centroid.length;
        }

        @Override
        public int size() {
            return codes.length;
        }

        @Override
        public Codes copy() {
            return this;
        }

        @Override
        public float[] centroid() {
            return centroid;
        }

        @Override
        public float[] scale() {
            return scale;
        }

        @Override
        public VectorSimilarityFunction similarity() {
            return similarity;
        }
    }

    private static float[] gaussian(Random random, int dims, float shift) {
        float[] v = new float[dims];
        for (int i = 0; i < dims; i++) {
            v[i] = (float) random.nextGaussian() + shift;
        }
        return v;
    }

    private static Codes encode(float[][] vectors, float[] centroid, VectorSimilarityFunction similarity) {
        int dims = centroid.length;
        byte[][] codes = new byte[vectors.length][SignBinarizer.codeBytes(dims)];
        float[][] corrections = new float[vectors.length][SignBinarizer.CORRECTIONS];
        float[] scale = new float[dims];
        for (int d = 0; d < vectors.length; d++) {
            SignBinarizer.binarize(vectors[d], centroid, codes[d]);
            SignBinarizer.corrections(vectors[d], centroid, corrections[d]);
            for (int i = 0; i < dims; i++) {
                scale[i] += Math.abs(vectors[d][i] - centroid[i]) / vectors.length;
            }
        }
        return new Codes(codes, corrections, centroid, scale, similarity);
    }

    /** Brute-force Hamming distance: one comparison per dimension, no bit packing. */
    private static int bruteHamming(float[] a, float[] b, float[] centroid) {
        int h = 0;
        for (int i = 0; i < a.length; i++) {
            if ((a[i] > centroid[i]) != (b[i] > centroid[i])) {
                h++;
            }
        }
        return h;
    }

    private static float[] unit(float[] v) {
        return VectorUtil.l2normalize(v);
    }

    public void testAsymmetricScorerMatchesBruteForce() throws IOException {
        Random random = random();
        for (VectorSimilarityFunction similarity : VectorSimilarityFunction.values()) {
            boolean unitVectors =
                    similarity == VectorSimilarityFunction.DOT_PRODUCT || similarity == VectorSimilarityFunction.COSINE;
            int dims = 1 + random.nextInt(500);
            float[] centroid = unitVectors ? new float[dims] : gaussian(random, dims, 0.1f);
            float[][] docs = new float[1 + random.nextInt(40)][];
            for (int d = 0; d < docs.length; d++) {
                docs[d] = gaussian(random, dims, 0.1f);
                if (unitVectors) {
                    unit(docs[d]);
                    for (int i = 0; i < dims; i++) {
                        centroid[i] += docs[d][i] / docs.length;
                    }
                }
            }
            Codes codes = encode(docs, centroid, similarity);
            float[] query = gaussian(random, dims, 0f);
            if (unitVectors) {
                unit(query);
            }
            RandomVectorScorer s = scorer.asymmetricScorer(codes, query);
            for (int d = 0; d < docs.length; d++) {
                double expected = BruteForceEstimate.score(query, docs[d], centroid, similarity);
                // float rounding scales with the terms summed, which cancel down to a much smaller result
                double tolerance = 1e-4 * Math.max(1, Math.abs(expected))
                        + 1e-6 * BruteForceEstimate.magnitude(query, docs[d], centroid);
                assertEquals(similarity + " dims " + dims, expected, s.score(d), tolerance);
            }
        }
    }

    /** The 4-bit query's sign dot product is within dims * step / 2 of the exact one. */
    public void testQuantizedQueryWithinErrorBound() {
        Random random = random();
        for (int round = 0; round < 50; round++) {
            int dims = 1 + random.nextInt(1000);
            float[] centroid = random.nextBoolean() ? gaussian(random, dims, 0f) : new float[dims];
            float[] query = gaussian(random, dims, 0.2f);
            SignCodeEstimator estimator = new SignCodeEstimator(query, centroid, VectorSimilarityFunction.EUCLIDEAN);
            float min = Float.POSITIVE_INFINITY, max = Float.NEGATIVE_INFINITY;
            for (int i = 0; i < dims; i++) {
                min = Math.min(min, query[i] - centroid[i]);
                max = Math.max(max, query[i] - centroid[i]);
            }
            double bound = dims * (max - min) / 15 / 2 + 1e-3 * dims;
            for (int d = 0; d < 10; d++) {
                byte[] code = new byte[SignBinarizer.codeBytes(dims)];
                SignBinarizer.binarize(gaussian(random, dims, 0f), centroid, code);
                double exact = 0;
                for (int i = 0; i < dims; i++) {
                    exact += (SignBinarizer.bit(code, i) ? 1 : -1) * (query[i] - centroid[i]);
                }
                assertEquals(exact, estimator.exactSignDot(code), 1e-3 * dims);
                assertEquals(
                        exact,
                        estimator.quantizedSignDot(CodeWords.pack(code, new long[CodeWords.words(dims)])),
                        bound);
            }
        }
    }

    /** The graph-walk scorer is the 4-bit estimate mapped like the asymmetric one. */
    public void testQueryScorerUsesQuantizedEstimate() throws IOException {
        Random random = random();
        int dims = 16 + random.nextInt(400);
        float[][] docs = new float[30][];
        float[] centroid = new float[dims];
        for (int d = 0; d < docs.length; d++) {
            docs[d] = unit(gaussian(random, dims, 0.1f));
            for (int i = 0; i < dims; i++) {
                centroid[i] += docs[d][i] / docs.length;
            }
        }
        Codes codes = encode(docs, centroid, VectorSimilarityFunction.DOT_PRODUCT);
        float[] query = unit(gaussian(random, dims, 0.1f));
        SignCodeEstimator estimator = new SignCodeEstimator(query, centroid, VectorSimilarityFunction.DOT_PRODUCT);
        RandomVectorScorer s = scorer.getRandomVectorScorer(VectorSimilarityFunction.DOT_PRODUCT, codes, query);
        for (int d = 0; d < docs.length; d++) {
            float expected = estimator.score(estimator.quantizedSignDot(codes.codeWords(d)), codes.corrections[d]);
            assertEquals(expected, s.score(d), 0f);
            assertTrue(s.score(d) >= 0f);
        }
    }

    /** Scoring a batch, as the graph walk does, gives each node the score it gets alone. */
    public void testBulkScoreEqualsSingleScores() throws IOException {
        Random random = random();
        int dims = 1 + random.nextInt(500);
        float[][] docs = new float[50][];
        for (int d = 0; d < docs.length; d++) {
            docs[d] = unit(gaussian(random, dims, 0.1f));
        }
        Codes codes = encode(docs, new float[dims], VectorSimilarityFunction.DOT_PRODUCT);
        assertBulkEqualsSingle(
                random,
                docs.length,
                scorer.getRandomVectorScorer(
                        VectorSimilarityFunction.DOT_PRODUCT, codes, unit(gaussian(random, dims, 0.1f))));
        UpdateableRandomVectorScorer hamming = scorer.getRandomVectorScorerSupplier(
                        VectorSimilarityFunction.DOT_PRODUCT, codes)
                .scorer();
        hamming.setScoringOrdinal(random.nextInt(docs.length));
        assertBulkEqualsSingle(random, docs.length, hamming);
    }

    private static void assertBulkEqualsSingle(Random random, int size, RandomVectorScorer s) throws IOException {
        for (int round = 0; round < 10; round++) {
            int[] nodes = new int[1 + random.nextInt(64)];
            float max = Float.NEGATIVE_INFINITY;
            for (int i = 0; i < nodes.length; i++) {
                nodes[i] = random.nextInt(size);
                max = Math.max(max, s.score(nodes[i]));
            }
            float[] scores = new float[nodes.length + 3];
            assertEquals(max, s.bulkScore(nodes, scores, nodes.length), 0f);
            for (int i = 0; i < nodes.length; i++) {
                assertEquals("node " + nodes[i], s.score(nodes[i]), scores[i], 0f);
            }
        }
    }

    public void testHammingSupplierMatchesBruteForce() throws IOException {
        Random random = random();
        for (int round = 0; round < 20; round++) {
            int dims = 1 + random.nextInt(700);
            float[] centroid = gaussian(random, dims, 0f);
            float[][] docs = new float[2 + random.nextInt(50)][];
            for (int d = 0; d < docs.length; d++) {
                docs[d] = gaussian(random, dims, 0f);
            }
            Codes codes = encode(docs, centroid, VectorSimilarityFunction.DOT_PRODUCT);
            UpdateableRandomVectorScorer s = scorer.getRandomVectorScorerSupplier(
                            VectorSimilarityFunction.DOT_PRODUCT, codes)
                    .scorer();
            for (int a = 0; a < docs.length; a++) {
                s.setScoringOrdinal(a);
                for (int b = 0; b < docs.length; b++) {
                    float expected = 1f - bruteHamming(docs[a], docs[b], centroid) / (float) dims;
                    assertEquals(expected, s.score(b), 1e-6f);
                }
                assertEquals(1f, s.score(a), 0f);
            }
        }
    }

    public void testDecodeInvertsBinarize() {
        Random random = random();
        int dims = 1 + random.nextInt(300);
        float[] centroid = gaussian(random, dims, 0f);
        float[] scale = new float[dims];
        for (int i = 0; i < dims; i++) {
            scale[i] = 0.01f + random.nextFloat();
        }
        float[] v = gaussian(random, dims, 0f);
        byte[] code = new byte[SignBinarizer.codeBytes(dims)];
        SignBinarizer.binarize(v, centroid, code);
        float[] decoded = new float[dims];
        SignBinarizer.decode(code, centroid, scale, decoded);
        byte[] again = new byte[code.length];
        SignBinarizer.binarize(decoded, centroid, again);
        assertArrayEquals(code, again);
    }

    /** Packing into words keeps every bit at its dimension and pads with zeros. */
    public void testCodeWordsKeepBitPositions() {
        Random random = random();
        for (int round = 0; round < 50; round++) {
            int dims = 1 + random.nextInt(300);
            byte[] code = new byte[SignBinarizer.codeBytes(dims)];
            SignBinarizer.binarize(gaussian(random, dims, 0f), new float[dims], code);
            long[] words = CodeWords.pack(code, new long[CodeWords.words(dims)]);
            int set = 0;
            for (int i = 0; i < CodeWords.words(dims) * 64; i++) {
                boolean expected = i < dims && SignBinarizer.bit(code, i);
                assertEquals("bit " + i + " of " + dims, expected, (words[i >>> 6] & (1L << i)) != 0);
                set += expected ? 1 : 0;
            }
            assertEquals(
                    set, java.util.Arrays.stream(words).mapToInt(Long::bitCount).sum());
        }
    }
}
