package dev.compress.training.inference;

import dev.compress.training.model.ModelArtifact;

/**
 * Plain-Java inference, the portable path: it needs neither native code nor the incubating Vector API.
 * A linear layer keeps its weights transposed ([in, out]) and accumulates y += x[i] * W^T[i, :]: the inner
 * loop is an element-wise multiply-add over contiguous arrays, which HotSpot's C2 compiles to SIMD
 * instructions (a dot-product reduction would stay scalar, since float addition order must be kept).
 * Zero inputs (after a ReLU) are skipped. Each weight row W^T[i, :] is applied to every row of a block
 * while it is in L1 cache. {@link VectorApiEncoder} is the faster path where the Vector API is present.
 */
public final class JavaEncoder extends LayerStackEncoder {

    /** @param outputDim one of the model's output dimensions (the prefix to keep) */
    public JavaEncoder(ModelArtifact model, int outputDim) {
        super(model, outputDim);
    }

    @Override
    protected Step linear(float[] weight, float[] b, int in, int out) {
        float[] wt = transpose(weight, out, in);
        return (rows, input) -> {
            float[][] y = new float[rows.length][];
            for (int r = 0; r < rows.length; r++) {
                y[r] = b.clone();
            }
            for (int i = 0; i < in; i++) {
                int off = i * out;
                for (int r = 0; r < rows.length; r++) {
                    float xi = rows[r][i];
                    if (xi != 0f) { // after a ReLU many inputs are exactly zero
                        float[] acc = y[r];
                        for (int o = 0; o < out; o++) {
                            acc[o] += xi * wt[off + o];
                        }
                    }
                }
            }
            return y;
        };
    }

    /** [rows, cols] row-major -> [cols, rows] row-major. */
    private static float[] transpose(float[] m, int rows, int cols) {
        float[] t = new float[m.length];
        for (int r = 0; r < rows; r++) {
            for (int c = 0; c < cols; c++) {
                t[c * rows + r] = m[r * cols + c];
            }
        }
        return t;
    }
}
