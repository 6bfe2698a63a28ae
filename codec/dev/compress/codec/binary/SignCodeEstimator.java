package dev.compress.codec.binary;

import org.apache.lucene.index.VectorSimilarityFunction;
import org.apache.lucene.util.VectorUtil;

/**
 * Estimates the similarity between one float query and sign codes of a segment.
 *
 * <p>With {@code r = q - c} (query minus the segment centre) and a code's signs {@code s}, the
 * inner product is estimated as {@code <q, x> ~ a_x <s, r> + <c, x> + <q, c> - <c, c>}, where
 * {@code a_x} and {@code <c, x>} are the code's stored corrections ({@link
 * SignBinarizer#corrections}). The estimate is then mapped to the field similarity's score the way
 * Lucene maps the exact value (dot product and cosine: {@code max(0, (1 + ip) / 2)}; maximum inner
 * product: {@link VectorUtil#scaleMaxInnerProductScore}; Euclidean: {@code 1 / (1 + d^2)} with
 * {@code d^2 = |q|^2 - 2 ip + |x|^2}), so the score is monotonic in the estimated similarity.
 *
 * <p>{@link #exactSignDot} computes {@code <s, r>} with floats; {@link #quantizedSignDot} with
 * {@code r} scalar-quantised to 4 bits and stored as four bit planes (plane {@code b} holds bit
 * {@code b} of every dimension's level), so that {@code sum_i s_i level_i = sum_b 2^b
 * popcount(plane_b & s)}: five popcounts per 64 dimensions, the planes' and the code's own, in one
 * pass over the code's words ({@link CodeWords}); that form is a {@link QuantizedQuery}. Its error is
 * at most {@code dims * step / 2} with {@code step = (max r - min r) / 15}.
 */
public final class SignCodeEstimator {

    private final int dims;
    private final float[] residual;
    private final float residualSum;
    private final QuantizedQuery quantized;

    /** Prepares {@code query} for codes taken around {@code centre} in a field of {@code similarity}. */
    public SignCodeEstimator(float[] query, float[] centre, VectorSimilarityFunction similarity) {
        this.dims = query.length;
        float[] prepared = SignBinarizer.prepare(query, similarity, new float[dims]);
        this.residual = new float[dims];
        float sum = 0;
        for (int i = 0; i < dims; i++) {
            residual[i] = prepared[i] - centre[i];
            sum += residual[i];
        }
        this.residualSum = sum;
        this.quantized = new QuantizedQuery(dims, similarity);
        quantized.quantise(
                residual,
                VectorUtil.dotProduct(prepared, centre) - VectorUtil.dotProduct(centre, centre),
                VectorUtil.dotProduct(prepared, prepared));
    }

    /** {@code <s, q - c>} in float arithmetic. */
    public float exactSignDot(byte[] code) {
        float agree = 0;
        for (int i = 0; i < dims; i++) {
            if (SignBinarizer.bit(code, i)) {
                agree += residual[i];
            }
        }
        return 2 * agree - residualSum;
    }

    /**
     * {@code <s, q - c>} from the 4-bit query, {@code sum_i s_i (lower + step * level_i)}, for a code
     * packed into words ({@link CodeWords}).
     */
    public float quantizedSignDot(long[] code) {
        return quantized.signDot(code, 0);
    }

    /** {@link #quantizedSignDot(long[])} of the code that starts at {@code words[offset]}. */
    public float quantizedSignDot(long[] words, int offset) {
        return quantized.signDot(words, offset);
    }

    /** The similarity score for a code with {@code signDot = <s, q - c>} and its corrections. */
    public float score(float signDot, float[] corrections) {
        return quantized.score(signDot, corrections, 0);
    }

    /** The 4-bit form of this query. */
    QuantizedQuery quantized() {
        return quantized;
    }
}
