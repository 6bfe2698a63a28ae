package dev.compress.training.inference;

import dev.compress.training.model.LayerSpec;
import dev.compress.training.model.ModelArtifact;
import dev.compress.training.model.ModelMetadata;

import java.util.ArrayList;
import java.util.List;

/**
 * Plain-Java inference: no native code, so it runs anywhere the plugin runs. Linear layers are
 * computed row by row against the row-major weight matrix ([out, in]) so both operands are read
 * sequentially; batch norm is folded into a per-dimension scale and shift once, at load.
 */
public final class JavaEncoder implements Encoder {

    private interface Step {
        float[] apply(float[] x);
    }

    private final int inputDim;
    private final int outputDim;
    private final boolean l2;
    private final List<Step> steps = new ArrayList<>();

    /** @param outputDim one of the model's output dimensions (the prefix to keep) */
    public JavaEncoder(ModelArtifact model, int outputDim) {
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

    private static Step step(LayerSpec layer, ModelArtifact model) {
        String n = layer.name();
        return switch (layer.type()) {
            case LayerSpec.LINEAR -> {
                float[] w = model.tensor(n + ".weight").data();
                float[] b = model.tensor(n + ".bias").data();
                int in = layer.inputDim();
                int out = layer.outputDim();
                yield x -> {
                    float[] y = new float[out];
                    for (int o = 0; o < out; o++) {
                        y[o] = dot(w, o * in, x, in) + b[o];
                    }
                    return y;
                };
            }
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
                yield x -> {
                    float[] y = new float[x.length];
                    for (int i = 0; i < x.length; i++) {
                        y[i] = x[i] * scale[i] + shift[i];
                    }
                    return y;
                };
            }
            case LayerSpec.RELU -> x -> {
                float[] y = new float[x.length];
                for (int i = 0; i < x.length; i++) {
                    y[i] = Math.max(0f, x[i]);
                }
                return y;
            };
            default -> throw new IllegalArgumentException("unsupported layer type " + layer.type());
        };
    }

    private static float dot(float[] w, int off, float[] x, int n) {
        float s0 = 0, s1 = 0, s2 = 0, s3 = 0;
        int i = 0;
        for (; i + 3 < n; i += 4) {
            s0 += w[off + i] * x[i];
            s1 += w[off + i + 1] * x[i + 1];
            s2 += w[off + i + 2] * x[i + 2];
            s3 += w[off + i + 3] * x[i + 3];
        }
        for (; i < n; i++) {
            s0 += w[off + i] * x[i];
        }
        return (s0 + s1) + (s2 + s3);
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
                throw new IllegalArgumentException("row " + r + " has " + batch[r].length + " values, model expects " + inputDim);
            }
            float[] x = batch[r];
            for (Step s : steps) {
                x = s.apply(x);
            }
            out[r] = finish(x, outputDim, l2);
        }
        return out;
    }

    /** Keeps the first {@code dim} values and L2-normalises them when asked (a zero vector stays zero). */
    static float[] finish(float[] x, int dim, boolean l2) {
        float[] y = java.util.Arrays.copyOf(x, dim);
        if (l2) {
            double norm = 0;
            for (float v : y) {
                norm += (double) v * v;
            }
            if (norm > 0) {
                float inv = (float) (1 / Math.sqrt(norm));
                for (int i = 0; i < dim; i++) {
                    y[i] *= inv;
                }
            }
        }
        return y;
    }
}
