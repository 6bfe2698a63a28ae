package dev.compress.training.inference;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.types.Shape;
import ai.djl.nn.Activation;
import ai.djl.nn.core.Linear;
import ai.djl.nn.norm.BatchNorm;
import dev.compress.training.model.LayerSpec;
import java.util.List;
import java.util.Map;

/**
 * The layer stack as DJL operations, shared by training (validation passes) and inference, so
 * the trained network and the served one are the same computation. Batch norm here is the
 * inference form (running statistics); the training form lives with the trainer.
 */
public final class DjlLayers {

    /** DJL's batch-norm momentum convention: the weight of the old running statistic. */
    public static final float BN_MOMENTUM = 0.9f;

    private DjlLayers() {}

    /** Applies {@code layers} to {@code x} ([batch, in]); {@code params} maps tensor names to arrays. */
    public static NDArray forward(List<LayerSpec> layers, Map<String, NDArray> params, NDArray x) {
        NDArray input = x;
        for (LayerSpec layer : layers) {
            x = apply(layer, params, x, input);
        }
        return x;
    }

    static NDArray apply(LayerSpec layer, Map<String, NDArray> p, NDArray x, NDArray input) {
        String n = layer.name();
        return switch (layer.type()) {
            case LayerSpec.ADD_INPUT -> x.add(input);
            case LayerSpec.LINEAR_SKIP -> x.add(linear(input, p.get(n + ".weight"), p.get(n + ".bias")));
            case LayerSpec.LINEAR -> linear(x, p.get(n + ".weight"), p.get(n + ".bias"));
            case LayerSpec.BATCH_NORM -> batchNorm(x, p, n, layer.eps().floatValue(), false);
            case LayerSpec.RELU -> Activation.relu(x);
            default -> throw new IllegalArgumentException("unsupported layer type " + layer.type());
        };
    }

    /** y = x W^T + b with W of shape [out, in]; one fused op whose result belongs to x's manager. */
    public static NDArray linear(NDArray x, NDArray weight, NDArray bias) {
        return Linear.linear(x, weight, bias).singletonOrThrow();
    }

    /**
     * Batch norm over the batch axis with the tensors {@code <name>.gamma/.beta/.running_mean/.running_var}.
     * With {@code training} it normalises by the batch statistics and updates the running ones in place
     * (DJL's momentum convention: new = {@value #BN_MOMENTUM} * old + (1 - {@value #BN_MOMENTUM}) * batch).
     */
    public static NDArray batchNorm(NDArray x, Map<String, NDArray> p, String name, float eps, boolean training) {
        return BatchNorm.batchNorm(
                        x,
                        p.get(name + ".running_mean"),
                        p.get(name + ".running_var"),
                        p.get(name + ".gamma"),
                        p.get(name + ".beta"),
                        1,
                        BN_MOMENTUM,
                        eps,
                        training)
                .singletonOrThrow();
    }

    /** Keeps the first {@code dim} columns and, when {@code l2}, divides each row by its norm. */
    public static NDArray finish(NDArray x, int dim, boolean l2) {
        long cols = x.getShape().get(1);
        NDArray y = dim == cols ? x : x.get(":, :" + dim);
        return l2 ? l2Normalize(y) : y;
    }

    /** Row-wise L2 normalisation along the last axis, guarded against zero rows. */
    public static NDArray l2Normalize(NDArray x) {
        int axis = x.getShape().dimension() - 1;
        return x.div(x.norm(new int[] {axis}, true).maximum(constant(x, 1e-12f)));
    }

    /**
     * A 0-d float32 constant owned by {@code like}'s manager. Use it instead of a Java number in any
     * operation autograd records: DJL turns a Java number into a temporary tensor over a direct buffer
     * and frees that buffer right after the operation, while autograd may keep the tensor for the
     * backward pass (a product or quotient does), which then reads freed memory: gradients that change
     * with GC timing, and training that diverges to NaN.
     */
    public static NDArray constant(NDArray like, float value) {
        return like.getManager().create(value);
    }

    static Shape shape(int... dims) {
        long[] l = new long[dims.length];
        for (int i = 0; i < dims.length; i++) {
            l[i] = dims[i];
        }
        return new Shape(l);
    }
}
