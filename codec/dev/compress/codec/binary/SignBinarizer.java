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
 *
 * <p>Each stored vector is its code followed by {@value #CORRECTIONS} float corrections (see
 * {@link #corrections}) that let {@link SignCodeEstimator} estimate inner products with a float
 * query, padded to {@link #recordBytes}.
 */
public final class SignBinarizer {

    private SignBinarizer() {}

    /** Floats of per-vector corrections stored after each code. */
    public static final int CORRECTIONS = 3;

    /** Bytes of a CPU cache line, the unit a record read costs. */
    static final int CACHE_LINE = 64;

    /**
     * Bytes of one stored record: a vector's code, then its corrections, then zero padding so that
     * records starting at a cache-line boundary touch as few lines as their size allows. A record of
     * up to 64 bytes is padded to the next power of two, so it never straddles two lines (384 dims:
     * 60 -> 64 bytes); a larger one to a whole number of lines when that adds at most a quarter.
     * A graph walk at a million vectors is bound by these reads.
     */
    public static int recordBytes(int dims) {
        int bytes = codeBytes(dims) + CORRECTIONS * Float.BYTES;
        if (bytes <= CACHE_LINE) {
            return Integer.highestOneBit(bytes - 1) << 1;
        }
        int lines = (bytes + CACHE_LINE - 1) / CACHE_LINE * CACHE_LINE;
        return lines - bytes <= bytes / 4 ? lines : bytes;
    }

    /**
     * Writes the corrections of {@code vector} (prepared) around {@code centre} into {@code out}:
     *
     * <ol>
     *   <li>{@code |x - c|^2 / sum_i |x_i - c_i|}: the factor that turns {@code <sign(x - c), y>}
     *       into an estimate of {@code <x - c, y>} (the RaBitQ estimator, with the code's unit
     *       vector {@code sign / sqrt(dims)}: {@code <x-c, y> ~ |x-c| <o, y> / <o, (x-c)/|x-c|>}).
     *       In general {@code |x - c|^2 / <s, x - c>}, which is what a codes-only merge keeps for a
     *       code it does not retake ({@link CentreShift}); 0 when {@code x} is the centre;
     *   <li>{@code <c, x>}, to move the estimate from the centre back to the origin;
     *   <li>{@code |x|^2}, for Euclidean distance.
     * </ol>
     */
    public static void corrections(float[] vector, float[] centre, float[] out) {
        double squaredResidual = 0, l1Residual = 0;
        for (int i = 0; i < vector.length; i++) {
            double r = vector[i] - centre[i];
            squaredResidual += r * r;
            l1Residual += Math.abs(r);
        }
        out[0] = l1Residual == 0 ? 0f : (float) (squaredResidual / l1Residual);
        out[1] = VectorUtil.dotProduct(centre, vector);
        out[2] = VectorUtil.dotProduct(vector, vector);
    }

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
}
