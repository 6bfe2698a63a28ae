package dev.compress.training.eval;

import dev.compress.training.data.EvalSet;
import dev.compress.training.data.VectorSet;
import dev.compress.training.inference.Encoder;

import java.util.ArrayList;
import java.util.List;

/**
 * Evaluates encoded spaces: the frozen vectors as they are, or a model's output through an
 * {@link Encoder}, each under every {@link Encoding}.
 */
public final class ModelEvaluator {

    /** One line of an evaluation table. */
    public record Row(String method, int dims, Encoding encoding, Scores scores) {}

    private static final int BATCH = 512;

    private final RetrievalEvaluator evaluator;

    public ModelEvaluator(RetrievalEvaluator evaluator) {
        this.evaluator = evaluator;
    }

    public List<Row> evaluateFrozen(EvalSet set) {
        return evaluateSpace("frozen", set);
    }

    public List<Row> evaluate(String method, Encoder encoder, EvalSet set) {
        return evaluateSpace(method, set.encoded(encode(encoder, set.queries()), encode(encoder, set.corpus())));
    }

    private List<Row> evaluateSpace(String method, EvalSet set) {
        List<Row> rows = new ArrayList<>();
        for (Encoding e : Encoding.values()) {
            rows.add(new Row(method, set.corpus().dim(), e, evaluator.evaluate(set, e)));
        }
        return rows;
    }

    /** Encodes a vector set in batches. */
    public static VectorSet encode(Encoder encoder, VectorSet in) {
        float[] out = new float[in.size() * encoder.outputDim()];
        for (int start = 0; start < in.size(); start += BATCH) {
            int n = Math.min(BATCH, in.size() - start);
            float[][] batch = new float[n][];
            for (int i = 0; i < n; i++) {
                batch[i] = in.row(start + i);
            }
            float[][] y = encoder.encode(batch);
            for (int i = 0; i < n; i++) {
                System.arraycopy(y[i], 0, out, (start + i) * encoder.outputDim(), encoder.outputDim());
            }
        }
        return new VectorSet(in.ids(), out, encoder.outputDim());
    }
}
