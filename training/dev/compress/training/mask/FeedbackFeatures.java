package dev.compress.training.mask;

import dev.compress.training.data.VectorRows;
import dev.compress.training.data.VectorSet;
import dev.compress.training.eval.ExactSearch;
import dev.compress.training.inference.Encoder;
import dev.compress.training.model.ModelMetadata;
import java.util.List;

/**
 * What the mask predictor reads: the query and what the query's own first pass says about it. For a D-dimensional
 * query q the input has 3D values,
 * <pre>
 *   x = [ q,  sqrt(D) * q * p,  sqrt(D) * q * n ]      (element-wise products)
 * </pre>
 * where p is the mean of the first pass's top {@code feedbackDocs} documents and n the mean of the
 * {@code negativeDocs} documents ranked just above {@code negativeDepth}: the pseudo-relevant and
 * pseudo-irrelevant sets of Eclipse-PRF ({@link DimensionMasks#eclipsePrf}), with the same parameters
 * ({@link MaskEvaluation.Prf}). The oracle importance the predictor learns, q * (relevant centroid - hard
 * negatives' centroid), is a product of the query with document means; a linear map of q alone cannot form
 * such a product, while q * p and q * n are its pseudo-relevance estimates, which the predictor learns to
 * weigh per dimension. The factor sqrt(D) brings the products (of order 1/D for unit vectors) to the
 * query's own scale (1/sqrt(D)), so one learning rate and weight decay suit all three parts.
 *
 * <p>An empty set contributes zeros: a first pass with one hit has no negatives, as Eclipse-PRF then falls back
 * to DIME-PRF.
 */
public final class FeedbackFeatures {

    /** Input width per query dimension. */
    public static final int WIDTH = 3;

    private FeedbackFeatures() {}

    /** The input of query {@code q} given its feedback documents (unit vectors, as the first pass ranked them). */
    public static float[] of(float[] q, float[][] positives, float[][] negatives) {
        int d = q.length;
        for (float[][] rows : List.of(positives, negatives)) {
            for (float[] r : rows) {
                if (r.length != d) {
                    throw new IllegalArgumentException(
                            "a feedback document has " + r.length + " dimensions, the query " + d);
                }
            }
        }
        float scale = (float) Math.sqrt(d);
        float[] p = mean(positives, d);
        float[] n = mean(negatives, d);
        float[] x = new float[WIDTH * d];
        for (int j = 0; j < d; j++) {
            x[j] = q[j];
            x[d + j] = scale * q[j] * p[j];
            x[2 * d + j] = scale * q[j] * n[j];
        }
        return x;
    }

    /** The input of every query, from an exact first pass over {@code corpus}. */
    public static VectorSet of(VectorSet queries, VectorRows corpus, MaskEvaluation.Prf prf) {
        int depth = Math.min(corpus.size(), Math.max(prf.feedbackDocs(), prf.negativeDepth()));
        int[][] firstPass = ExactSearch.search(queries, corpus, depth);
        float[][] rows = new float[queries.size()][];
        for (int i = 0; i < rows.length; i++) {
            int[] ranked = firstPass[i];
            rows[i] = of(
                    queries.row(i),
                    MaskEvaluation.docs(corpus, ranked, 0, prf.feedbackDocs()),
                    MaskEvaluation.docs(
                            corpus,
                            ranked,
                            Math.max(prf.feedbackDocs(), ranked.length - prf.negativeDocs()),
                            ranked.length));
        }
        return VectorSet.ofRows(queries.ids(), rows);
    }

    /**
     * Whether a mask model reads feedback ({@value #WIDTH} inputs per scored dimension) rather than the query alone
     * (one per dimension, the predictor of the query-aware dimension selection paper).
     */
    public static boolean readBy(ModelMetadata model) {
        return model.inputDim() == WIDTH * model.maxOutputDim();
    }

    /** {@link #readBy(ModelMetadata)} for a loaded predictor. */
    public static boolean readBy(Encoder predictor) {
        return predictor.inputDim() == WIDTH * predictor.outputDim();
    }

    private static float[] mean(float[][] rows, int d) {
        float[] m = new float[d];
        for (float[] r : rows) {
            for (int j = 0; j < d; j++) {
                m[j] += r[j];
            }
        }
        for (int j = 0; j < d && rows.length > 0; j++) {
            m[j] /= rows.length;
        }
        return m;
    }
}
