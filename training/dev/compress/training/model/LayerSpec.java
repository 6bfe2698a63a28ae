package dev.compress.training.model;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One layer of a feed-forward adapter, as named in the model file's metadata. The tensors a layer
 * needs follow from its type and name, so a loader can check every shape:
 * <ul>
 *   <li>{@code linear}: {@code <name>.weight [out, in]}, {@code <name>.bias [out]}; y = x W^T + b</li>
 *   <li>{@code batch_norm} (inference form, running statistics): {@code <name>.gamma}, {@code .beta},
 *       {@code .running_mean}, {@code .running_var}, all {@code [dim]}; y = (x - mean) / sqrt(var + eps) * gamma + beta</li>
 *   <li>{@code relu}: no tensors</li>
 *   <li>{@code add_input}: no tensors; y = x + (the stack's input), the skip connection of a residual
 *       adapter (Matryoshka-Adaptor, Search-Adaptor: f(e) = e + MLP(e)); its dimension must equal the
 *       model's input dimension</li>
 *   <li>{@code linear_skip}: {@code <name>.weight [out, in]}, {@code <name>.bias [out]}; y = x + (the stack's
 *       input) W^T + b, a skip connection through a linear map. {@code in} is the model's input dimension,
 *       {@code out} the dimension of x and y. A trainer starts an adapter where unsupervised compression
 *       ends by putting the corpus PCA projection here and a zero-initialised last layer before it.</li>
 * </ul>
 */
public record LayerSpec(String type, String name, int inputDim, int outputDim, Double eps) {

    public static final String LINEAR = "linear";
    public static final String BATCH_NORM = "batch_norm";
    public static final String RELU = "relu";
    public static final String ADD_INPUT = "add_input";
    public static final String LINEAR_SKIP = "linear_skip";

    public static LayerSpec linear(String name, int in, int out) {
        return new LayerSpec(LINEAR, name, in, out, null);
    }

    public static LayerSpec batchNorm(String name, int dim, double eps) {
        return new LayerSpec(BATCH_NORM, name, dim, dim, eps);
    }

    public static LayerSpec relu(String name, int dim) {
        return new LayerSpec(RELU, name, dim, dim, null);
    }

    public static LayerSpec addInput(String name, int dim) {
        return new LayerSpec(ADD_INPUT, name, dim, dim, null);
    }

    /** @param inputDim the model's input dimension; @param outputDim the dimension of the stack where the skip joins */
    public static LayerSpec linearSkip(String name, int inputDim, int outputDim) {
        return new LayerSpec(LINEAR_SKIP, name, inputDim, outputDim, null);
    }

    /** The dimension of the rows this layer receives, given the model's input dimension. */
    public int receivedDim() {
        return LINEAR_SKIP.equals(type) ? outputDim : inputDim;
    }

    /** Tensor name -> required shape. */
    public Map<String, int[]> requiredTensors() {
        Map<String, int[]> t = new LinkedHashMap<>();
        switch (type) {
            case LINEAR, LINEAR_SKIP -> {
                t.put(name + ".weight", new int[] {outputDim, inputDim});
                t.put(name + ".bias", new int[] {outputDim});
            }
            case BATCH_NORM -> {
                if (inputDim != outputDim) {
                    throw new ModelFormatException("batch_norm layer '" + name + "' must keep its dimension, got "
                            + inputDim + " -> " + outputDim);
                }
                if (eps == null || !(eps > 0)) {
                    throw new ModelFormatException("batch_norm layer '" + name + "' needs eps > 0, got " + eps);
                }
                for (String s : new String[] {"gamma", "beta", "running_mean", "running_var"}) {
                    t.put(name + "." + s, new int[] {inputDim});
                }
            }
            case RELU, ADD_INPUT -> {
                if (inputDim != outputDim) {
                    throw new ModelFormatException(type + " layer '" + name + "' must keep its dimension");
                }
            }
            default ->
                throw new ModelFormatException("unknown layer type '" + type + "' for layer '" + name
                        + "' (known: linear, linear_skip, batch_norm, relu, add_input)");
        }
        return t;
    }
}
