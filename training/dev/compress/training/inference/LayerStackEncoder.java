package dev.compress.training.inference;

import dev.compress.training.model.LayerSpec;
import dev.compress.training.model.ModelArtifact;
import dev.compress.training.model.ModelMetadata;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * CPU inference in Java, no native code: the layer stack of a model file applied to blocks of rows. Batch
 * norm is folded into a per-dimension scale and shift once, at load; subclasses supply the linear layer,
 * which is where nearly all the time goes.
 */
public abstract class LayerStackEncoder implements Encoder {

    /** One layer applied to a block of rows. */
    protected interface Step {
        /** {@code input} is the block as it entered the stack (for the skip connection of {@code add_input}). */
        float[][] apply(float[][] rows, float[][] input);
    }

    /** Rows per block: each weight is read once per block instead of once per vector. */
    static final int BLOCK = 32;

    private final int inputDim;
    private final int outputDim;
    private final boolean l2;
    private final List<Step> steps = new ArrayList<>();

    /** @param outputDim one of the model's output dimensions (the prefix to keep) */
    protected LayerStackEncoder(ModelArtifact model, int outputDim) {
        ModelMetadata m = model.metadata();
        if (!m.outputDims().contains(outputDim)) {
            throw new IllegalArgumentException("model serves output dims " + m.outputDims() + ", not " + outputDim);
        }
        this.inputDim = m.inputDim();
        this.outputDim = outputDim;
        this.l2 = ModelMetadata.NORM_L2.equals(m.normalization());
        for (LayerSpec layer : m.layers()) {
            steps.add(step(layer, model));
        }
    }

    /**
     * y = x W^T + b for a block of rows.
     *
     * @param weight [out, in] row-major, as stored in the model file
     */
    protected abstract Step linear(float[] weight, float[] bias, int in, int out);

    private Step step(LayerSpec layer, ModelArtifact model) {
        String n = layer.name();
        return switch (layer.type()) {
            case LayerSpec.LINEAR ->
                linear(
                        model.tensor(n + ".weight").data(),
                        model.tensor(n + ".bias").data(),
                        layer.inputDim(),
                        layer.outputDim());
            case LayerSpec.BATCH_NORM -> {
                float[] gamma = model.tensor(n + ".gamma").data();
                float[] beta = model.tensor(n + ".beta").data();
                float[] mean = model.tensor(n + ".running_mean").data();
                float[] var = model.tensor(n + ".running_var").data();
                float[] scale = new float[gamma.length];
                float[] shift = new float[gamma.length];
                for (int i = 0; i < gamma.length; i++) {
                    scale[i] = (float) (gamma[i] / Math.sqrt(var[i] + layer.eps()));
                    shift[i] = beta[i] - mean[i] * scale[i];
                }
                yield (rows, input) -> map(rows, (x, i) -> x * scale[i] + shift[i]);
            }
            case LayerSpec.RELU -> (rows, input) -> map(rows, (x, i) -> Math.max(0f, x));
            case LayerSpec.LINEAR_SKIP -> {
                Step skip = linear(
                        model.tensor(n + ".weight").data(),
                        model.tensor(n + ".bias").data(),
                        layer.inputDim(),
                        layer.outputDim());
                yield (rows, input) -> add(rows, skip.apply(input, input));
            }
            case LayerSpec.ADD_INPUT -> (rows, input) -> add(rows, input);
            default -> throw new IllegalArgumentException("unsupported layer type " + layer.type());
        };
    }

    private static float[][] add(float[][] rows, float[][] other) {
        float[][] y = new float[rows.length][];
        for (int r = 0; r < rows.length; r++) {
            float[] out = rows[r].clone();
            float[] in = other[r];
            for (int i = 0; i < out.length; i++) {
                out[i] += in[i];
            }
            y[r] = out;
        }
        return y;
    }

    private interface ElementOp {
        float apply(float x, int index);
    }

    private static float[][] map(float[][] rows, ElementOp op) {
        float[][] y = new float[rows.length][];
        for (int r = 0; r < rows.length; r++) {
            float[] x = rows[r];
            float[] out = new float[x.length];
            for (int i = 0; i < x.length; i++) {
                out[i] = op.apply(x[i], i);
            }
            y[r] = out;
        }
        return y;
    }

    @Override
    public int inputDim() {
        return inputDim;
    }

    @Override
    public int outputDim() {
        return outputDim;
    }

    @Override
    public float[][] encode(float[][] batch) {
        float[][] out = new float[batch.length][];
        for (int r = 0; r < batch.length; r++) {
            if (batch[r].length != inputDim) {
                throw new IllegalArgumentException(
                        "row " + r + " has " + batch[r].length + " values, model expects " + inputDim);
            }
        }
        for (int start = 0; start < batch.length; start += BLOCK) {
            float[][] input = Arrays.copyOfRange(batch, start, Math.min(batch.length, start + BLOCK));
            float[][] x = input;
            for (Step s : steps) {
                x = s.apply(x, input);
            }
            for (int r = 0; r < x.length; r++) {
                out[start + r] = VectorPrefix.of(x[r], outputDim, l2);
            }
        }
        return out;
    }
}
