package dev.compress.codec.binary;

import dev.compress.codec.search.QueryMask;
import org.apache.lucene.index.VectorSimilarityFunction;
import org.apache.lucene.util.VectorUtil;

/**
 * {@link SignCodeEstimator} restricted to the kept dimensions M of a {@link QueryMask}: estimates
 * the masked inner product {@code <q_M, x> = sum_{j in M} q_j x_j} from a code.
 *
 * <p>With the code's signs {@code s} of {@code x - c}: {@code <q_M, x> = <q_M, x - c> + <q_M, c>},
 * and {@code <q_M, x - c> ~ a_x <s_M, q_M>}, where {@code a_x} is the code's first correction.
 * Only bits in M take part: {@code <s_M, v> = 2 sum_{j in M, bit set} v_j - sum_{j in M} v_j}. In
 * the 4-bit form, the query's levels are quantised over M only and laid out as bit planes that are
 * zero outside M, so {@code int4BitDotProduct} sums levels over M, and the count of set bits is
 * {@code popcount(code AND mask)}. The residual is {@code q_M} rather than the unmasked
 * estimator's {@code q - c}: the per-document correction {@code <c, x>} covers all dimensions and
 * cannot be split by the mask.
 *
 * <p>Scores map the estimate like Lucene maps an exact inner product (dot product and cosine:
 * {@code max(0, (1 + ip) / 2)}; maximum inner product: {@link VectorUtil#scaleMaxInnerProductScore});
 * a masked query has no Euclidean meaning here and is refused.
 */
final class MaskedSignCodeEstimator {

  private static final int QUERY_BITS = 4;
  private static final int LEVELS = (1 << QUERY_BITS) - 1;

  private final VectorSimilarityFunction similarity;
  private final byte[] mask;
  private final int kept;
  private final int dims;
  private final float[] residual;
  private final float residualSum;
  private final float offset;
  private final byte[] planes;
  private final float lower;
  private final float step;
  private final long levelSum;

  /** {@code maskedQuery} is zero outside the mask (see {@link QueryMask#apply}). */
  MaskedSignCodeEstimator(float[] maskedQuery, QueryMask mask, float[] centre, VectorSimilarityFunction similarity) {
    if (similarity == VectorSimilarityFunction.EUCLIDEAN) {
      throw new IllegalArgumentException("a masked query ranks by the masked inner product; it cannot search a euclidean field");
    }
    if (mask.dimension() != maskedQuery.length) {
      throw new IllegalArgumentException("mask has " + mask.dimension() + " dimensions, query has " + maskedQuery.length);
    }
    this.similarity = similarity;
    this.mask = mask.bits();
    this.kept = mask.keptCount();
    this.dims = maskedQuery.length;
    float[] prepared = SignBinarizer.prepare(maskedQuery, similarity, new float[dims]);
    this.residual = new float[dims];
    float sum = 0, min = Float.POSITIVE_INFINITY, max = Float.NEGATIVE_INFINITY;
    for (int i = 0; i < dims; i++) {
      if (mask.isKept(i)) {
        residual[i] = prepared[i];
        sum += residual[i];
        min = Math.min(min, residual[i]);
        max = Math.max(max, residual[i]);
      }
    }
    this.residualSum = sum;
    this.offset = VectorUtil.dotProduct(residual, centre);
    this.lower = min;
    this.step = max > min ? (max - min) / LEVELS : 0f;
    int codeBytes = SignBinarizer.codeBytes(dims);
    this.planes = new byte[QUERY_BITS * codeBytes];
    long levels = 0;
    for (int i = 0; i < dims; i++) {
      if (mask.isKept(i) == false) {
        continue;
      }
      int level = step == 0 ? 0 : Math.round((residual[i] - min) / step);
      levels += level;
      for (int bit = 0; bit < QUERY_BITS; bit++) {
        if ((level & (1 << bit)) != 0) {
          planes[bit * codeBytes + (i >>> 3)] |= (byte) (1 << (i & 7));
        }
      }
    }
    this.levelSum = levels;
  }

  /** {@code <s_M, q_M>} in float arithmetic. */
  float exactSignDot(byte[] code) {
    float agree = 0;
    for (int i = 0; i < dims; i++) {
      if (SignBinarizer.bit(code, i)) {
        agree += residual[i];
      }
    }
    return 2 * agree - residualSum;
  }

  /** {@code <s_M, q_M>} from the 4-bit query: set bits counted through the mask. */
  float quantizedSignDot(byte[] code) {
    int setBits = 0;
    for (int i = 0; i < code.length; i++) {
      setBits += Integer.bitCount(code[i] & mask[i] & 0xFF);
    }
    long levelsOnSetBits = VectorUtil.int4BitDotProduct(planes, code);
    return lower * (2 * setBits - kept) + step * (2 * levelsOnSetBits - levelSum);
  }

  /** The similarity score for a code with {@code signDot = <s_M, q_M>} and its corrections. */
  float score(float signDot, float[] corrections) {
    float innerProduct = corrections[0] * signDot + offset;
    return switch (similarity) {
      case DOT_PRODUCT, COSINE -> Math.max((1 + innerProduct) / 2, 0);
      case MAXIMUM_INNER_PRODUCT -> VectorUtil.scaleMaxInnerProductScore(innerProduct);
      case EUCLIDEAN -> throw new AssertionError("refused in the constructor");
    };
  }
}
