package dev.compress.training.trainer;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.Shape;
import dev.compress.training.data.VectorSet;

import java.util.function.UnaryOperator;

/** Runs a DJL function over a vector set in batches, each in its own sub-manager. */
final class BatchEncoding {

    private static final int BATCH = 1024;

    private BatchEncoding() {}

    static VectorSet encode(NDManager parent, UnaryOperator<NDArray> f, VectorSet in) {
        int dim = in.dim();
        float[] out = null;
        int outDim = 0;
        for (int start = 0; start < in.size(); start += BATCH) {
            int n = Math.min(BATCH, in.size() - start);
            try (NDManager step = parent.newSubManager()) {
                float[] chunk = java.util.Arrays.copyOfRange(in.data(), start * dim, (start + n) * dim);
                NDArray y = f.apply(step.create(chunk, new Shape(n, dim)));
                float[] values = y.toFloatArray();
                if (out == null) {
                    outDim = values.length / n;
                    out = new float[in.size() * outDim];
                }
                System.arraycopy(values, 0, out, start * outDim, values.length);
            }
        }
        return new VectorSet(in.ids(), out, outDim);
    }
}
