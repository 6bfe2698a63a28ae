package dev.compress.training.trainer;

import static dev.compress.training.inference.DjlLayers.constant;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.Shape;
import ai.djl.nn.Activation;

/**
 * Losses of the adaptor family (Search-Adaptor, Matryoshka-Adaptor, SMEC, temperature-aggregated
 * MRL, query-mask predictor) as DJL operations. Scalars enter as float32 constants of the batch's
 * manager ({@link dev.compress.training.inference.DjlLayers#constant}), never as Java numbers.
 */
public final class AdaptorLosses {

    private static final float MASKED = 1e4f;

    private AdaptorLosses() {}

    /**
     * Pairwise rank loss (Search-Adaptor; Matryoshka-Adaptor's and SMEC's eq. 8):
     * sum over queries i and candidate pairs (j, k) with y_ij > y_ik of
     * (y_ij - y_ik) * log(1 + exp(s_ik - s_ij)), divided by the sum of the weights (y_ij - y_ik) so the
     * value does not grow with the batch. {@code scores} [B, C] (already scaled), {@code relevance} [B, C].
     */
    public static NDArray pairwiseRank(NDArray scores, NDArray relevance) {
        // Only pairs whose j is relevant to query i carry weight, and a row has few: gather those columns
        // (P per row, padded with gain 0) instead of forming all B x C x C pairs. The same sum, C / P times cheaper.
        long b = relevance.getShape().get(0);
        long c = relevance.getShape().get(1);
        float[] y = relevance.toFloatArray();
        int p = 1;
        for (int i = 0; i < b; i++) {
            int count = 0;
            for (int j = 0; j < c; j++) {
                count += y[(int) (i * c + j)] > 0 ? 1 : 0;
            }
            p = Math.max(p, count);
        }
        long[] columns = new long[(int) b * p];
        float[] gains = new float[(int) b * p];
        for (int i = 0; i < b; i++) {
            int n = 0;
            for (int j = 0; j < c; j++) {
                float g = y[(int) (i * c + j)];
                if (g > 0) {
                    columns[i * p + n] = j;
                    gains[i * p + n] = g;
                    n++;
                }
            }
        }
        NDManager m = scores.getManager();
        NDArray relevantScores = scores.gather(m.create(columns, new Shape(b, p)), 1);
        NDArray relevantGains = m.create(gains, new Shape(b, p));
        // diff[i, r, k] = s_ik - s_i,col(r) ; weight[i, r, k] = relu(y_i,col(r) - y_ik)
        NDArray diff = scores.expandDims(1).sub(relevantScores.expandDims(2));
        NDArray weight = Activation.relu(relevantGains.expandDims(2).sub(relevance.expandDims(1)));
        NDArray total = weight.sum().maximum(constant(scores, 1e-6f));
        return Activation.softPlus(diff).mul(weight).sum().div(total);
    }

    /** L1 recovery: mean over rows of ||adapted - start||_1 (keeps the adapter near where it started). */
    public static NDArray l1Recovery(NDArray adapted, NDArray original) {
        return adapted.sub(original)
                .abs()
                .sum()
                .div(constant(adapted, adapted.getShape().get(0)));
    }

    /**
     * Similarity preservation on selected pairs: sum over (i, j) with {@code mask} 1 of
     * |teacher_ij - student_ij|, divided by the number of selected pairs. With an all-ones mask over a
     * batch it is Matryoshka-Adaptor's pairwise similarity loss; with the top-k neighbours by the
     * teacher it is the top-k similarity loss (Matryoshka-Adaptor) and SMEC's S-XBM loss (eq. 7).
     */
    public static NDArray similarityPreservation(NDArray student, NDArray teacher, NDArray mask) {
        return student.sub(teacher).abs().mul(mask).sum().div(mask.sum().maximum(constant(student, 1f)));
    }

    /**
     * InfoNCE of each query against a candidate pool at temperature {@code tau}: -log softmax at the
     * query's own positive (column {@code i} for row {@code i}). Other candidates judged relevant to the
     * query ({@code relevance} > 0 off the diagonal) are removed from the denominator rather than
     * treated as negatives. {@code q} [B, m] and {@code docs} [C, m] are L2-normalised, C >= B.
     */
    public static NDArray infoNce(NDArray q, NDArray docs, NDArray falseNegativeMask, float tau) {
        NDArray logits = q.matMul(docs.transpose()).mul(constant(q, 1f / tau)).sub(falseNegativeMask);
        NDArray logProb = logits.logSoftmax(1);
        long b = q.getShape().get(0);
        NDArray eye = q.getManager().eye((int) b, (int) docs.getShape().get(0), 0, q.getDataType());
        return logProb.mul(eye).sum().neg().div(constant(q, b));
    }

    /** {MASKED where a column other than the row's own positive is relevant to the row's query, else 0}. */
    public static NDArray falseNegativeMask(NDArray relevance) {
        long b = relevance.getShape().get(0);
        NDArray eye =
                relevance.getManager().eye((int) b, (int) relevance.getShape().get(1), 0, relevance.getDataType());
        return relevance
                .gt(0f)
                .toType(relevance.getDataType(), false)
                .sub(eye)
                .maximum(constant(relevance, 0f))
                .mul(constant(relevance, MASKED));
    }

    /** KL(target || softmax(logits)), mean over rows; {@code target} rows are distributions. */
    public static NDArray klToSoftmax(NDArray target, NDArray logits) {
        NDArray logTarget = target.maximum(constant(target, 1e-30f)).log();
        return target.mul(logTarget.sub(logits.logSoftmax(1)))
                .sum()
                .div(constant(logits, logits.getShape().get(0)));
    }

    /** Cosine-similarity matrix of two sets of L2-normalised rows. */
    public static NDArray cosine(NDArray a, NDArray b) {
        return a.matMul(b.transpose());
    }
}
