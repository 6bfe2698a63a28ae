package dev.compress.codec;

import org.apache.lucene.index.VectorSimilarityFunction;

/** The sign-code similarity estimate computed naively in doubles, as tests' reference. */
final class BruteForceEstimate {

    private BruteForceEstimate() {}

    /**
     * ip = |x-c|^2 / |x-c|_1 * sum_i sign(x_i - c_i) (q_i - c_i) + <c, x> + <q, c> - <c, c>, mapped
     * to Lucene's score for {@code similarity}. {@code q} and {@code x} must already be normalised for
     * cosine.
     */
    static double score(float[] q, float[] x, float[] c, VectorSimilarityFunction similarity) {
        double sq = 0, l1 = 0, signDot = 0, cx = 0, qc = 0, cc = 0, xx = 0, qq = 0;
        for (int i = 0; i < q.length; i++) {
            double r = x[i] - c[i];
            sq += r * r;
            l1 += Math.abs(r);
            signDot += (x[i] > c[i] ? 1 : -1) * (q[i] - c[i]);
            cx += c[i] * x[i];
            qc += q[i] * c[i];
            cc += c[i] * c[i];
            xx += x[i] * x[i];
            qq += q[i] * q[i];
        }
        double ip = (l1 == 0 ? 0 : sq / l1) * signDot + cx + qc - cc;
        return switch (similarity) {
            case DOT_PRODUCT, COSINE -> Math.max((1 + ip) / 2, 0);
            case MAXIMUM_INNER_PRODUCT -> ip < 0 ? 1 / (1 - ip) : ip + 1;
            case EUCLIDEAN -> 1 / (1 + Math.max(0, qq - 2 * ip + xx));
        };
    }

    /**
     * The sum of the absolute values of every term {@link #score} adds up: float arithmetic over
     * these terms (the scorers') differs from the doubles here by a multiple of this, not of the
     * result, which cancellation can make much smaller.
     */
    static double magnitude(float[] q, float[] x, float[] c) {
        double sq = 0, l1 = 0, signTerms = 0, terms = 0;
        for (int i = 0; i < q.length; i++) {
            double r = x[i] - c[i];
            sq += r * r;
            l1 += Math.abs(r);
            signTerms += Math.abs(q[i] - c[i]);
            terms += Math.abs(c[i] * x[i]) + Math.abs(q[i] * c[i]) + c[i] * c[i] + x[i] * x[i] + q[i] * q[i];
        }
        return (l1 == 0 ? 0 : sq / l1) * signTerms + terms;
    }
}
