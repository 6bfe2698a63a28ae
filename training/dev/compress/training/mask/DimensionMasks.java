package dev.compress.training.mask;

import dev.compress.training.inference.Encoder;

/**
 * Per-query dimension masks (Learning to Select: Query-Aware Adaptive Dimension Selection for Dense Retrieval) in plain Java, for the
 * evaluation here and for the plugin's query rewrite. A mask keeps k of the query's D dimensions and
 * zeroes the others; documents are untouched, so the masked dot product is the sum over kept
 * dimensions of q_j * d_j. Every mask is the top k of an importance vector (ties: lower index first):
 * <ul>
 *   <li>{@link #learned}: a mask predictor's D scores for the query and its first-pass feedback (model output
 *       {@code dimension_scores});</li>
 *   <li>{@link #norm}: |q_j|;</li>
 *   <li>{@link #cutoff}: the first k dimensions (Matryoshka-style prefix);</li>
 *   <li>{@link #dimePrf}: DIME with pseudo-relevance feedback, q_j * mean over the feedback documents of d_j;</li>
 *   <li>{@link #eclipsePrf}: Eclipse, q_j * (mean of the pseudo-relevant d_j - mean of the pseudo-irrelevant d_j).</li>
 * </ul>
 */
public final class DimensionMasks {

    private DimensionMasks() {}

    /** Dimensions kept at {@code ratio} of {@code dim}: round(ratio * dim), at least 1. */
    public static int keep(int dim, double ratio) {
        if (!(ratio > 0 && ratio <= 1)) {
            throw new IllegalArgumentException("ratio must be in (0, 1], got " + ratio);
        }
        return Math.max(1, (int) Math.round(ratio * dim));
    }

    /** The k largest entries of {@code importance} (ties: lower index first). */
    public static boolean[] topK(float[] importance, int k) {
        int d = importance.length;
        if (k < 1 || k > d) {
            throw new IllegalArgumentException("k must be in 1.." + d + ", got " + k);
        }
        Integer[] order = new Integer[d];
        for (int i = 0; i < d; i++) {
            order[i] = i;
        }
        java.util.Arrays.sort(order, (a, b) -> {
            int c = Float.compare(importance[b], importance[a]);
            return c != 0 ? c : Integer.compare(a, b);
        });
        boolean[] mask = new boolean[d];
        for (int i = 0; i < k; i++) {
            mask[order[i]] = true;
        }
        return mask;
    }

    /**
     * The top k of a mask predictor's scores for {@code input}: the query, for a predictor reading the query
     * alone, or the query with its feedback ({@link FeedbackFeatures}).
     */
    public static boolean[] learned(Encoder predictor, float[] input, int k) {
        if (predictor.inputDim() != input.length) {
            throw new IllegalArgumentException(
                    "mask predictor reads " + predictor.inputDim() + " values, its input has " + input.length);
        }
        return topK(predictor.encode(input), k);
    }

    public static boolean[] norm(float[] query, int k) {
        float[] a = new float[query.length];
        for (int j = 0; j < a.length; j++) {
            a[j] = Math.abs(query[j]);
        }
        return topK(a, k);
    }

    public static boolean[] cutoff(int dim, int k) {
        if (k < 1 || k > dim) {
            throw new IllegalArgumentException("k must be in 1.." + dim + ", got " + k);
        }
        boolean[] mask = new boolean[dim];
        java.util.Arrays.fill(mask, 0, k, true);
        return mask;
    }

    /** DIME-PRF importance q_j * mean_f d_{f,j} over the feedback documents. */
    public static float[] dimeImportance(float[] query, float[][] feedback) {
        float[] mean = mean(feedback, query.length);
        float[] u = new float[query.length];
        for (int j = 0; j < u.length; j++) {
            u[j] = query[j] * mean[j];
        }
        return u;
    }

    public static boolean[] dimePrf(float[] query, float[][] feedback, int k) {
        return topK(dimeImportance(query, feedback), k);
    }

    /** Eclipse importance q_j * (mean of positives_j - mean of negatives_j). */
    public static float[] eclipseImportance(float[] query, float[][] positives, float[][] negatives) {
        float[] p = mean(positives, query.length);
        float[] n = mean(negatives, query.length);
        float[] u = new float[query.length];
        for (int j = 0; j < u.length; j++) {
            u[j] = query[j] * (p[j] - n[j]);
        }
        return u;
    }

    public static boolean[] eclipsePrf(float[] query, float[][] positives, float[][] negatives, int k) {
        return topK(eclipseImportance(query, positives, negatives), k);
    }

    /** The query with unmasked dimensions set to zero (its dot product with d is the masked score). */
    public static float[] apply(float[] query, boolean[] mask) {
        if (mask.length != query.length) {
            throw new IllegalArgumentException("mask has " + mask.length + " dims, query has " + query.length);
        }
        float[] out = new float[query.length];
        for (int j = 0; j < out.length; j++) {
            if (mask[j]) {
                out[j] = query[j];
            }
        }
        return out;
    }

    public static int count(boolean[] mask) {
        int n = 0;
        for (boolean b : mask) {
            n += b ? 1 : 0;
        }
        return n;
    }

    /** The mean of at least one feedback document of {@code dim} dimensions, summed in double. */
    static float[] mean(float[][] rows, int dim) {
        if (rows.length == 0) {
            throw new IllegalArgumentException("need at least one feedback document");
        }
        double[] sum = new double[dim];
        for (float[] r : rows) {
            if (r.length != dim) {
                throw new IllegalArgumentException("feedback document has " + r.length + " dims, query has " + dim);
            }
            for (int j = 0; j < dim; j++) {
                sum[j] += r[j];
            }
        }
        float[] m = new float[dim];
        for (int j = 0; j < dim; j++) {
            m[j] = (float) (sum[j] / rows.length);
        }
        return m;
    }
}
