package dev.compress.codec.binary;

import org.apache.lucene.index.VectorSimilarityFunction;
import org.apache.lucene.util.VectorUtil;

/**
 * Turns float vectors into 1-bit sign codes and back.
 *
 * <p>Bit {@code i} of a code is set when component {@code i} lies above the centre (the segment
 * mean when centring is on, zero otherwise). Bits are packed eight per byte, least significant
 * bit first, so a code takes {@code ceil(dims / 8)} bytes. Cosine fields are binarised after
 * L2-normalisation, so that the sign pattern does not depend on a vector's length relative to
 * the centre.
 */
public final class SignBinarizer {

  private SignBinarizer() {}

  /** Bytes taken by the code of a {@code dims}-dimensional vector. */
  public static int codeBytes(int dims) {
    return (dims + 7) >>> 3;
  }

  /**
   * Copies {@code vector} into {@code scratch}, L2-normalised for cosine fields, and returns the
   * vector to binarise (either {@code vector} itself or {@code scratch}).
   */
  public static float[] prepare(float[] vector, VectorSimilarityFunction similarity, float[] scratch) {
    if (similarity != VectorSimilarityFunction.COSINE) {
      return vector;
    }
    System.arraycopy(vector, 0, scratch, 0, vector.length);
    return VectorUtil.l2normalize(scratch, false);
  }

  /** Writes the sign code of {@code vector - centre} into {@code code}. */
  public static void binarize(float[] vector, float[] centre, byte[] code) {
    java.util.Arrays.fill(code, (byte) 0);
    for (int i = 0; i < vector.length; i++) {
      if (vector[i] > centre[i]) {
        code[i >>> 3] |= (byte) (1 << (i & 7));
      }
    }
  }

  /** Whether bit {@code i} of {@code code} is set. */
  public static boolean bit(byte[] code, int i) {
    return (code[i >>> 3] & (1 << (i & 7))) != 0;
  }

  /**
   * Reconstructs a float vector from its code: {@code centre[i] + scale[i]} where the bit is set,
   * {@code centre[i] - scale[i]} where it is not. With {@code scale} the mean absolute deviation
   * from the centre, this is the least-squares reconstruction of a symmetric distribution from its
   * signs.
   */
  public static void decode(byte[] code, float[] centre, float[] scale, float[] out) {
    for (int i = 0; i < out.length; i++) {
      out[i] = bit(code, i) ? centre[i] + scale[i] : centre[i] - scale[i];
    }
  }

  /** Number of differing bits between two codes of equal length. */
  public static int hamming(byte[] a, byte[] b) {
    return VectorUtil.xorBitCount(a, b);
  }

  /**
   * Hamming similarity in [0, 1]: {@code 1 - hamming / dims}. 1 means identical signs, 0.5 is
   * what two unrelated codes get on average, 0 means every sign differs.
   */
  public static float hammingScore(byte[] a, byte[] b, int dims) {
    return 1f - hamming(a, b) / (float) dims;
  }
}
