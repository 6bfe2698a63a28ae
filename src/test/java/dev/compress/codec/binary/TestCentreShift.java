package dev.compress.codec.binary;

import java.util.Random;
import org.apache.lucene.tests.util.LuceneTestCase;

/**
 * Corrections moved to a new centre: the stored norm stays, an unmoved centre changes nothing, and
 * the moved values match those computed from the float vector around the new centre for the same
 * code (the only estimated term is {@code <d, x - c>}).
 */
public class TestCentreShift extends LuceneTestCase {

  public void testAnUnmovedCentreKeepsTheCorrections() {
    Random random = random();
    int dims = 1 + random.nextInt(500);
    float[] centre = gaussian(random, dims, 0.3);
    for (int n = 0; n < 50; n++) {
      float[] x = gaussian(random, dims, 1 + random.nextDouble());
      byte[] code = new byte[SignBinarizer.codeBytes(dims)];
      float[] corrections = new float[SignBinarizer.CORRECTIONS];
      SignBinarizer.binarize(x, centre, code);
      SignBinarizer.corrections(x, centre, corrections);
      float[] moved = corrections.clone();
      new CentreShift(centre, centre.clone()).apply(code, moved);
      for (int c = 0; c < SignBinarizer.CORRECTIONS; c++) {
        assertEquals("correction " + c, corrections[c], moved[c], 1e-4 * Math.max(1, Math.abs(corrections[c])));
      }
    }
  }

  public void testMovedCorrectionsEstimateAsWellAsExactOnes() {
    Random random = random();
    int dims = 64 + random.nextInt(700);
    float[] from = gaussian(random, dims, 0.3);
    float[] to = from.clone();
    for (int i = 0; i < dims; i++) {
      to[i] += (float) (0.05 * random.nextGaussian());
    }
    double movedError = 0, exactError = 0;
    for (int n = 0; n < 300; n++) {
      double sigma = 0.5 + random.nextDouble();
      float[] x = gaussian(random, dims, sigma);
      float[] q = gaussian(random, dims, sigma);
      byte[] code = new byte[SignBinarizer.codeBytes(dims)];
      float[] moved = new float[SignBinarizer.CORRECTIONS];
      SignBinarizer.binarize(x, from, code);
      SignBinarizer.corrections(x, from, moved);
      float squaredNorm = moved[2];
      new CentreShift(from, to).apply(code, moved);
      assertEquals("|x|^2 is stored, not estimated", squaredNorm, moved[2], 0f);

      // the same code's exact corrections around the new centre
      double toDot = 0, residual = 0, signDot = 0, trueDot = 0;
      for (int i = 0; i < dims; i++) {
        double r = x[i] - to[i];
        toDot += (double) to[i] * x[i];
        residual += r * r;
        signDot += SignBinarizer.bit(code, i) ? r : -r;
        trueDot += (double) q[i] * x[i];
      }
      exactError += Math.abs(estimate(q, code, to, residual / signDot, toDot) - trueDot);
      movedError += Math.abs(estimate(q, code, to, moved[0], moved[1]) - trueDot);
    }
    // <d, x - c> is the one estimated term; it must stay small beside the code's own error
    assertTrue("moved " + movedError + ", exact " + exactError, movedError < 1.1 * exactError);
  }

  /** {@code <q, x> ~ a <s, q - c> + <c, x> + <q, c> - <c, c>}. */
  private static double estimate(float[] q, byte[] code, float[] centre, double scaleFactor, double centreDot) {
    double signDot = 0, queryDot = 0, centreNorm = 0;
    for (int i = 0; i < q.length; i++) {
      double r = q[i] - centre[i];
      signDot += SignBinarizer.bit(code, i) ? r : -r;
      queryDot += (double) q[i] * centre[i];
      centreNorm += (double) centre[i] * centre[i];
    }
    return scaleFactor * signDot + centreDot + queryDot - centreNorm;
  }

  private static float[] gaussian(Random random, int dims, double sigma) {
    float[] v = new float[dims];
    for (int i = 0; i < dims; i++) {
      v[i] = (float) (sigma * random.nextGaussian());
    }
    return v;
  }
}
