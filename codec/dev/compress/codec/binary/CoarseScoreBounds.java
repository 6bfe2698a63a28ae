package dev.compress.codec.binary;

import org.apache.lucene.index.VectorSimilarityFunction;

/**
 * Bounds on what Lucene's similarity computes between a query and a stored vector, from sums over
 * the vector's coarse values ({@link FloatPacking#coarseSums}): the dot product for {@code
 * DOT_PRODUCT} and {@code MAXIMUM_INNER_PRODUCT}, the cosine for {@code COSINE}. Each of these
 * similarities' scores grows with that value, so a candidate whose upper bound is below n others'
 * lower bounds is not among the n best.
 *
 * <p>Every coarse component m_i is within {@code r |m_i| + a} of the stored one ({@link
 * FloatPacking#COARSE_ERROR}, {@link FloatPacking#COARSE_ABSOLUTE_ERROR}), so the dot product is
 * within {@code r sum |q_i m_i| + a sum |q_i|} of the coarse one and the vector's norm within
 * {@code r |m| + a sqrt(D)} of the coarse norm. Both sides also carry float rounding: a sum of
 * {@code D} products in float is within about {@code D * 2^-24} of its terms' absolute sum, whatever
 * the order of addition (Lucene's Vector API kernels add in their own), which the bounds add with a
 * margin.
 */
final class CoarseScoreBounds {

    private static final double R = FloatPacking.COARSE_ERROR;
    private static final double A = FloatPacking.COARSE_ABSOLUTE_ERROR;

    /** Covers products that underflow float's range, where relative bounds say nothing. */
    private static final double TINY = 1e-30;

    /** Relative error of the final division and square root, in float and double. */
    private static final double LAST_STEP = 0x1p-20;

    private final VectorSimilarityFunction similarity;
    private final double rounding;
    private final double queryAbsolute;
    private final double queryNormLower;
    private final double queryNormUpper;
    private final double absoluteNormError;

    CoarseScoreBounds(VectorSimilarityFunction similarity, float[] query) {
        if (supports(similarity) == false) {
            throw new IllegalArgumentException("no coarse bounds for " + similarity);
        }
        this.similarity = similarity;
        this.rounding = 1.01 * (query.length + 2) * 0x1p-24;
        double absolute = 0;
        double squares = 0;
        for (float q : query) {
            absolute += Math.abs(q);
            squares += (double) q * q;
        }
        this.queryAbsolute = absolute;
        this.queryNormLower = squares * (1 - rounding);
        this.queryNormUpper = squares * (1 + rounding);
        this.absoluteNormError = A * Math.sqrt(query.length);
    }

    static boolean supports(VectorSimilarityFunction similarity) {
        return similarity == VectorSimilarityFunction.DOT_PRODUCT
                || similarity == VectorSimilarityFunction.MAXIMUM_INNER_PRODUCT
                || similarity == VectorSimilarityFunction.COSINE;
    }

    /**
     * Writes the lower and upper bound of Lucene's dot product or cosine for the vector whose coarse
     * {@code sums} (dot product, absolute dot product, squared norm) are given into {@code lower[i]}
     * and {@code upper[i]}.
     */
    void bound(float[] sums, double[] lower, double[] upper, int i) {
        double dot = sums[0];
        double absolute = sums[1] / (1 - rounding);
        // Lucene's dot product against ours: the coarse values' error, then both sums' rounding
        double error = (R + rounding * (2 + R)) * absolute + A * queryAbsolute * (1 + rounding) + TINY;
        double low = dot - error;
        double high = dot + error;
        if (similarity != VectorSimilarityFunction.COSINE) {
            set(low, high, lower, upper, i);
            return;
        }
        double normLow = (1 - R) * Math.sqrt(sums[2] / (1 + rounding)) - absoluteNormError;
        double normHigh = (1 + R) * Math.sqrt(sums[2] / (1 - rounding)) + absoluteNormError;
        if (normLow <= 0 || queryNormLower <= 0) {
            set(Double.NaN, Double.NaN, lower, upper, i);
            return;
        }
        // Lucene divides its dot product by the square root of the product of both squared norms
        double least = Math.sqrt(queryNormLower * normLow * normLow * (1 - rounding)) * (1 - LAST_STEP);
        double most = Math.sqrt(queryNormUpper * normHigh * normHigh * (1 + rounding)) * (1 + LAST_STEP);
        double cosineHigh = high >= 0 ? high / least : high / most;
        double cosineLow = low >= 0 ? low / most : low / least;
        set(
                cosineLow - LAST_STEP * Math.abs(cosineLow) - TINY,
                cosineHigh + LAST_STEP * Math.abs(cosineHigh) + TINY,
                lower,
                upper,
                i);
    }

    /** A bound that is not finite (sums that overflowed float, a zero norm) bounds nothing: the candidate is kept. */
    private static void set(double low, double high, double[] lower, double[] upper, int i) {
        boolean finite = Double.isFinite(low) && Double.isFinite(high);
        lower[i] = finite ? low : Double.NEGATIVE_INFINITY;
        upper[i] = finite ? high : Double.POSITIVE_INFINITY;
    }
}
