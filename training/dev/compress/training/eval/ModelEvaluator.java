package dev.compress.training.eval;

import dev.compress.training.data.EvalSet;
import dev.compress.training.data.VectorRows;
import dev.compress.training.data.VectorSet;
import dev.compress.training.inference.Encoder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;

/**
 * Evaluates encoded spaces: the frozen vectors as they are, or a model's output through an
 * {@link Encoder}, each under every {@link Encoding}.
 */
public final class ModelEvaluator {

    /** One line of an evaluation table. */
    public record Row(String method, int dims, Encoding encoding, Scores scores) {}

    private final RetrievalEvaluator evaluator;

    public ModelEvaluator(RetrievalEvaluator evaluator) {
        this.evaluator = evaluator;
    }

    public List<Row> evaluateFrozen(EvalSet set) {
        return evaluateSpace("frozen", set);
    }

    /** The corpus is encoded block by block during the scan, unless it is already on the heap (then once, up front). */
    public List<Row> evaluate(String method, Encoder encoder, EvalSet set) {
        return evaluateSpace(method, set.encoded(encode(encoder, set.queries()), encode(encoder, set.corpus())));
    }

    private List<Row> evaluateSpace(String method, EvalSet set) {
        Map<Encoding, Scores> scores = evaluator.evaluate(set, EnumSet.allOf(Encoding.class));
        List<Row> rows = new ArrayList<>();
        for (Encoding e : Encoding.values()) {
            rows.add(new Row(method, set.corpus().dim(), e, scores.get(e)));
        }
        return rows;
    }

    /** Encodes a vector set on the heap. */
    public static VectorSet encode(Encoder encoder, VectorSet in) {
        return in.transform(encoder.outputDim(), blocks(encoder, in.dim()));
    }

    /** Encodes any source: now for a set on the heap, else as a view that encodes each block when read. */
    public static VectorRows encode(Encoder encoder, VectorRows in) {
        return in.transform(encoder.outputDim(), blocks(encoder, in.dim()));
    }

    private static VectorRows.BlockFunction blocks(Encoder encoder, int inDim) {
        int outDim = encoder.outputDim();
        return (rows, count) -> {
            float[][] batch = new float[count][];
            for (int i = 0; i < count; i++) {
                batch[i] = Arrays.copyOfRange(rows, i * inDim, (i + 1) * inDim);
            }
            float[][] y = encoder.encode(batch);
            float[] out = new float[count * outDim];
            for (int i = 0; i < count; i++) {
                System.arraycopy(y[i], 0, out, i * outDim, outDim);
            }
            return out;
        };
    }
}
