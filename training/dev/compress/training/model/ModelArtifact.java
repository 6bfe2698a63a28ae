package dev.compress.training.model;

import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A trained model: metadata plus named tensors. The constructor checks that the tensors are exactly
 * those the metadata's layers and auxiliary list require, with the required shapes, and that the layer
 * stack chains from the input dimension to at least the largest output dimension.
 */
public record ModelArtifact(ModelMetadata metadata, Map<String, Tensor> tensors) {

    public ModelArtifact {
        tensors = Collections.unmodifiableMap(new LinkedHashMap<>(tensors));
        validate(metadata, tensors);
    }

    public Tensor tensor(String name) {
        Tensor t = tensors.get(name);
        if (t == null) {
            throw new ModelFormatException("model has no tensor '" + name + "'");
        }
        return t;
    }

    private static void validate(ModelMetadata m, Map<String, Tensor> tensors) {
        if (m.method() == null || m.method().isBlank()) {
            throw new ModelFormatException("metadata has no method");
        }
        if (m.inputDim() <= 0) {
            throw new ModelFormatException("metadata inputDim must be positive, got " + m.inputDim());
        }
        if (m.outputDims().isEmpty()) {
            throw new ModelFormatException("metadata lists no outputDims");
        }
        if (!List.of(ModelMetadata.NORM_L2, ModelMetadata.NORM_NONE).contains(m.normalization())) {
            throw new ModelFormatException("unknown normalization '" + m.normalization() + "'");
        }
        if (!List.of(ModelMetadata.OUTPUT_EMBEDDING, ModelMetadata.OUTPUT_DIMENSION_SCORES)
                .contains(m.output())) {
            throw new ModelFormatException("unknown output kind '" + m.output() + "'");
        }
        Map<String, int[]> required = new LinkedHashMap<>();
        int dim = m.inputDim();
        for (LayerSpec layer : m.layers()) {
            if (layer.receivedDim() != dim) {
                throw new ModelFormatException("layer '" + layer.name() + "' expects input dim " + layer.receivedDim()
                        + " but receives " + dim);
            }
            if (LayerSpec.LINEAR_SKIP.equals(layer.type()) && layer.inputDim() != m.inputDim()) {
                throw new ModelFormatException("linear_skip layer '" + layer.name() + "' reads input dim "
                        + layer.inputDim() + " but the model's input has " + m.inputDim());
            }
            if (LayerSpec.ADD_INPUT.equals(layer.type()) && layer.inputDim() != m.inputDim()) {
                throw new ModelFormatException("add_input layer '" + layer.name() + "' has dim " + layer.inputDim()
                        + " but the model's input has " + m.inputDim());
            }
            for (Map.Entry<String, int[]> e : layer.requiredTensors().entrySet()) {
                if (required.put(e.getKey(), e.getValue()) != null) {
                    throw new ModelFormatException(
                            "tensor '" + e.getKey() + "' is required twice (duplicate layer name?)");
                }
            }
            dim = layer.outputDim();
        }
        for (int d : m.outputDims()) {
            if (d <= 0 || d > dim) {
                throw new ModelFormatException(
                        "output dim " + d + " is outside 1.." + dim + " (the layer stack's output)");
            }
        }
        m.auxiliaryTensors()
                .forEach((name, shape) -> required.put(
                        name, shape.stream().mapToInt(Integer::intValue).toArray()));
        for (Map.Entry<String, int[]> e : required.entrySet()) {
            Tensor t = tensors.get(e.getKey());
            if (t == null) {
                throw new ModelFormatException(
                        "missing tensor '" + e.getKey() + "' of shape " + Arrays.toString(e.getValue()));
            }
            if (!Arrays.equals(t.shape(), e.getValue())) {
                throw new ModelFormatException("tensor '" + e.getKey() + "' has shape " + Arrays.toString(t.shape())
                        + ", expected " + Arrays.toString(e.getValue()));
            }
        }
        for (String name : tensors.keySet()) {
            if (!required.containsKey(name)) {
                throw new ModelFormatException(
                        "unexpected tensor '" + name + "' (not required by any layer or auxiliary entry)");
            }
            if (!name.equals(tensors.get(name).name())) {
                throw new ModelFormatException("tensor stored under '" + name + "' is named '"
                        + tensors.get(name).name() + "'");
            }
        }
    }
}
