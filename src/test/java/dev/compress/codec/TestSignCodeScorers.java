package dev.compress.codec;

import dev.compress.codec.binary.BinarizedVectorValues;
import dev.compress.codec.binary.BinaryFlatVectorsScorer;
import dev.compress.codec.binary.SignBinarizer;
import java.io.IOException;
import java.util.Random;
import org.apache.lucene.codecs.hnsw.DefaultFlatVectorScorer;
import org.apache.lucene.index.VectorSimilarityFunction;
import org.apache.lucene.tests.util.LuceneTestCase;
import org.apache.lucene.util.hnsw.RandomVectorScorer;
import org.apache.lucene.util.hnsw.UpdateableRandomVectorScorer;

/** Property tests of the sign-code scorers against brute-force computations on random vectors. */
public class TestSignCodeScorers extends LuceneTestCase {

  private final BinaryFlatVectorsScorer scorer = new BinaryFlatVectorsScorer(DefaultFlatVectorScorer.INSTANCE);

  /** In-memory codes of {@code vectors}, binarised exactly as the format does. */
  private static final class Codes extends BinarizedVectorValues {
    final byte[][] codes;
    final float[] centroid;
    final float[] scale;
    final VectorSimilarityFunction similarity;

    Codes(byte[][] codes, float[] centroid, float[] scale, VectorSimilarityFunction similarity) {
      this.codes = codes;
      this.centroid = centroid;
      this.scale = scale;
      this.similarity = similarity;
    }

    @Override
    public byte[] vectorValue(int ord) {
      return codes[ord];
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
    float[] scale = new float[dims];
    for (int d = 0; d < vectors.length; d++) {
      SignBinarizer.binarize(vectors[d], centroid, codes[d]);
      for (int i = 0; i < dims; i++) {
        scale[i] += Math.abs(vectors[d][i] - centroid[i]) / vectors.length;
      }
    }
    return new Codes(codes, centroid, scale, similarity);
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

  public void testHammingQueryScorerMatchesBruteForce() throws IOException {
    Random random = random();
    for (int round = 0; round < 20; round++) {
      int dims = 1 + random.nextInt(700);
      float[] centroid = random.nextBoolean() ? gaussian(random, dims, 0.3f) : new float[dims];
      float[][] docs = new float[1 + random.nextInt(50)][];
      for (int d = 0; d < docs.length; d++) {
        docs[d] = gaussian(random, dims, 0.3f);
      }
      Codes codes = encode(docs, centroid, VectorSimilarityFunction.EUCLIDEAN);
      float[] query = gaussian(random, dims, 0.3f);
      RandomVectorScorer s = scorer.getRandomVectorScorer(VectorSimilarityFunction.EUCLIDEAN, codes, query);
      for (int d = 0; d < docs.length; d++) {
        float expected = 1f - bruteHamming(query, docs[d], centroid) / (float) dims;
        assertEquals(expected, s.score(d), 1e-6f);
        assertTrue(s.score(d) >= 0f && s.score(d) <= 1f);
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
      UpdateableRandomVectorScorer s =
          scorer.getRandomVectorScorerSupplier(VectorSimilarityFunction.DOT_PRODUCT, codes).scorer();
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

  /** The asymmetric score is the field similarity against centre +- scale, dimension by dimension. */
  public void testAsymmetricScorerMatchesBruteForce() throws IOException {
    Random random = random();
    for (VectorSimilarityFunction similarity : VectorSimilarityFunction.values()) {
      int dims = 1 + random.nextInt(500);
      float[] centroid = gaussian(random, dims, 0.1f);
      float[][] docs = new float[1 + random.nextInt(40)][];
      for (int d = 0; d < docs.length; d++) {
        docs[d] = gaussian(random, dims, 0.1f);
      }
      Codes codes = encode(docs, centroid, similarity);
      float[] query = gaussian(random, dims, 0f);
      RandomVectorScorer s = scorer.asymmetricScorer(codes, query);
      for (int d = 0; d < docs.length; d++) {
        float[] decoded = new float[dims];
        for (int i = 0; i < dims; i++) {
          decoded[i] = docs[d][i] > centroid[i] ? centroid[i] + codes.scale[i] : centroid[i] - codes.scale[i];
        }
        assertEquals(similarity.compare(query, decoded), s.score(d), 1e-5f);
      }
    }
  }

  /**
   * With a zero centre and unit scale the asymmetric dot product is sum(q_i * sign_i), which must
   * rank documents exactly like the brute-force sum over the query's magnitudes.
   */
  public void testAsymmetricOrderIsWeightedSignAgreement() throws IOException {
    Random random = random();
    int dims = 64 + random.nextInt(300);
    float[][] docs = new float[60][];
    for (int d = 0; d < docs.length; d++) {
      docs[d] = gaussian(random, dims, 0f);
    }
    byte[][] packed = new byte[docs.length][SignBinarizer.codeBytes(dims)];
    for (int d = 0; d < docs.length; d++) {
      SignBinarizer.binarize(docs[d], new float[dims], packed[d]);
    }
    float[] ones = new float[dims];
    java.util.Arrays.fill(ones, 1f);
    Codes codes = new Codes(packed, new float[dims], ones, VectorSimilarityFunction.MAXIMUM_INNER_PRODUCT);
    float[] query = gaussian(random, dims, 0f);
    RandomVectorScorer s = scorer.asymmetricScorer(codes, query);
    for (int a = 0; a < docs.length; a++) {
      for (int b = 0; b < docs.length; b++) {
        double wa = 0, wb = 0;
        for (int i = 0; i < dims; i++) {
          wa += docs[a][i] > 0 ? query[i] : -query[i];
          wb += docs[b][i] > 0 ? query[i] : -query[i];
        }
        if (wa > wb + 1e-3) {
          assertTrue(s.score(a) >= s.score(b));
        }
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
}
