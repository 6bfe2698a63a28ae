package dev.compress.training.mask;

import dev.compress.training.data.VectorRows;
import dev.compress.training.data.VectorSet;
import dev.compress.training.eval.ExactSearch;
import dev.compress.training.inference.Encoder;
import dev.compress.training.model.ModelMetadata;

/**
 * What the mask predictor reads: the query and what the query's own first pass says about it. For a D-dimensional
 * query q the input has 2D values,
 * <pre>
 *   x = [ q,  sqrt(D) * q * p ]      (element-wise product)
 * </pre>
 * where p is the mean of the first pass's top {@code feedbackDocs} documents: the pseudo-relevant set of DIME-PRF
 * ({@link DimensionMasks#dimePrf}), with the same parameter ({@link MaskEvaluation.Prf#feedbackDocs}). The oracle
 * importance the predictor learns, q * (relevant centroid - hard negatives' centroid), is a product of the query
 * with document means; a linear map of q alone cannot form such a product, while q * p is its pseudo-relevance
 * estimate, which the predictor learns to weigh per dimension. The factor sqrt(D) brings the product (of order 1/D
 * for unit vectors) to the query's own scale (1/sqrt(D)), so one learning rate and weight decay suit both parts.
 * Eclipse-PRF's pseudo-irrelevant tail would add a third part and a first pass a thousand hits deep; on the
 * training splits' cross-validation it did not pay for that cost.
 */
public final class FeedbackFeatures {

    /** Input width per query dimension. */
    public static final int WIDTH = 2;

    private FeedbackFeatures() {}

    /**
     * The input of query {@code q} given its feedback documents: at least one, unit vectors, as the first pass ranked
     * them.
     */
    public static float[] of(float[] q, float[][] feedback) {
        int d = q.length;
        float scale = (float) Math.sqrt(d);
        float[] p = DimensionMasks.mean(feedback, d);
        float[] x = new float[WIDTH * d];
        for (int j = 0; j < d; j++) {
            x[j] = q[j];
            x[d + j] = scale * q[j] * p[j];
        }
        return x;
    }

    /** The input of every query, from an exact first pass {@code feedbackDocs} deep over {@code corpus}. */
    public static VectorSet of(VectorSet queries, VectorRows corpus, int feedbackDocs) {
        int[][] firstPass = ExactSearch.search(queries, corpus, Math.min(corpus.size(), feedbackDocs));
        float[][] rows = new float[queries.size()][];
        for (int i = 0; i < rows.length; i++) {
            rows[i] = of(queries.row(i), MaskEvaluation.docs(corpus, firstPass[i], 0, firstPass[i].length));
        }
        return VectorSet.ofRows(queries.ids(), rows);
    }

    /**
     * Whether a mask model reads feedback ({@value #WIDTH} inputs per scored dimension) rather than the query alone
     * (one per dimension, the predictor of Learning to Select).
     */
    public static boolean readBy(ModelMetadata model) {
        return model.inputDim() == WIDTH * model.maxOutputDim();
    }

    /** {@link #readBy(ModelMetadata)} for a loaded predictor. */
    public static boolean readBy(Encoder predictor) {
        return predictor.inputDim() == WIDTH * predictor.outputDim();
    }
}
