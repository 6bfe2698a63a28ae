package dev.compress.training.trainer;

import ai.djl.Device;
import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import dev.compress.training.inference.DjlLayers;
import dev.compress.training.model.LayerSpec;
import dev.compress.training.model.Tensor;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

/**
 * A trainable layer stack without batch norm (linear, relu, add_input), whose training forward pass is
 * exactly the exported inference computation ({@link DjlLayers#forward}). Weights are initialised in Java
 * from the seed with PyTorch's default uniform(+-1/sqrt(fan_in)); tensors named in {@code zeroInit} start
 * at zero (the last layer of a residual adapter, so that the adapter starts as the identity).
 */
final class LayerNetwork implements AutoCloseable {

    private final NDManager manager;
    private final List<LayerSpec> layers;
    private final Map<String, NDArray> params = new LinkedHashMap<>();

    LayerNetwork(NDManager parent, Device device, List<LayerSpec> layers, long seed, Set<String> zeroInit) {
        this(parent, device, layers, seed, zeroInit, Map.of());
    }

    /** As above, but tensors present in {@code initial} start from those values (e.g. a previous stage's best). */
    LayerNetwork(NDManager parent, Device device, List<LayerSpec> layers, long seed, Set<String> zeroInit,
                 Map<String, float[]> initial) {
        this.manager = parent.newSubManager(device);
        this.layers = List.copyOf(layers);
        Random rnd = new Random(seed);
        for (LayerSpec layer : layers) {
            if (LayerSpec.BATCH_NORM.equals(layer.type())) {
                throw new IllegalArgumentException("LayerNetwork has no training form of batch norm");
            }
            for (Map.Entry<String, int[]> t : layer.requiredTensors().entrySet()) {
                int[] shape = t.getValue();
                float[] values = new float[shape.length == 2 ? shape[0] * shape[1] : shape[0]];
                if (initial.containsKey(t.getKey())) {
                    System.arraycopy(initial.get(t.getKey()), 0, values, 0, values.length);
                } else if (!zeroInit.contains(t.getKey())) {
                    double bound = 1 / Math.sqrt(layer.inputDim());
                    for (int i = 0; i < values.length; i++) {
                        values[i] = (float) ((rnd.nextDouble() * 2 - 1) * bound);
                    }
                }
                NDArray array = manager.create(values, DiveNetwork.shapeOf(shape));
                array.setRequiresGradient(true);
                params.put(t.getKey(), array);
            }
        }
    }

    /**
     * A residual adapter f(x) = x + W2 relu(W1 x + b1) + b2 of hidden width {@code hidden}, W2 and b2
     * zero so that f starts as the identity (Matryoshka-Adaptor, Search-Adaptor).
     */
    static List<LayerSpec> residualAdapter(int dim, int hidden) {
        return List.of(LayerSpec.linear("adapter.fc1", dim, hidden), LayerSpec.relu("adapter.relu", hidden),
            LayerSpec.linear("adapter.fc2", hidden, dim), LayerSpec.addInput("adapter.skip", dim));
    }

    static Set<String> residualZeroInit() {
        return Set.of("adapter.fc2.weight", "adapter.fc2.bias");
    }

    List<LayerSpec> layers() {
        return layers;
    }

    Map<String, NDArray> trainable() {
        return params;
    }

    NDArray forward(NDArray x) {
        return DjlLayers.forward(layers, params, x);
    }

    Map<String, float[]> snapshot() {
        Map<String, float[]> s = new LinkedHashMap<>();
        params.forEach((k, v) -> s.put(k, v.toFloatArray()));
        return s;
    }

    Map<String, Tensor> exportTensors(Map<String, float[]> snapshot) {
        Map<String, Tensor> out = new LinkedHashMap<>();
        for (LayerSpec layer : layers) {
            for (Map.Entry<String, int[]> t : layer.requiredTensors().entrySet()) {
                out.put(t.getKey(), new Tensor(t.getKey(), t.getValue(), snapshot.get(t.getKey()).clone()));
            }
        }
        return out;
    }

    List<LayerSpec> copyOfLayers() {
        return new ArrayList<>(layers);
    }

    @Override
    public void close() {
        manager.close();
    }
}
