package dev.compress.training.trainer;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.Shape;
import dev.compress.training.data.VectorRows;
import dev.compress.training.data.VectorSet;
import java.util.function.UnaryOperator;

/**
 * Runs a DJL function over vectors in batches of {@link VectorRows#BLOCK_ROWS}, each in its own
 * sub-manager: at once for a set on the heap, block by block as they are read for any other source.
 */
final class BatchEncoding {

    private BatchEncoding() {}

    static VectorSet encode(NDManager parent, UnaryOperator<NDArray> f, VectorSet in) {
        return in.transform(outputDim(parent, f, in), function(parent, f, in.dim()));
    }

    static VectorRows encode(NDManager parent, UnaryOperator<NDArray> f, VectorRows in) {
        return in.transform(outputDim(parent, f, in), function(parent, f, in.dim()));
    }

    private static VectorRows.BlockFunction function(NDManager parent, UnaryOperator<NDArray> f, int dim) {
        return (rows, count) -> {
            try (NDManager step = parent.newSubManager()) {
                return f.apply(step.create(rows, new Shape(count, dim))).toFloatArray();
            }
        };
    }

    /** The output width of {@code f}, from one row. */
    private static int outputDim(NDManager parent, UnaryOperator<NDArray> f, VectorRows in) {
        try (NDManager step = parent.newSubManager()) {
            return (int) f.apply(step.create(in.row(0), new Shape(1, in.dim())))
                    .getShape()
                    .get(1);
        }
    }
}
