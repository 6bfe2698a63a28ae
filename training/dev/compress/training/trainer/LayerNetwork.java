package dev.compress.training.trainer;

import ai.djl.Device;
import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import dev.compress.training.inference.DjlLayers;
import dev.compress.training.model.LayerSpec;
import dev.compress.training.model.Tensor;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

/**
 * A trainable layer stack without batch norm (linear, relu, add_input, linear_skip), whose training forward pass is
 * exactly the exported inference computation ({@link DjlLayers#forward}). Weights are initialised in Java
 * from the seed with PyTorch's default uniform(+-1/sqrt(fan_in)); tensors named in {@code zeroInit} start
 * at zero (the last layer of a residual adapter, so that the adapter starts as its skip connection), tensors
 * in {@code initial} from the given values, and tensors in {@code frozen} never train.
 */
final class LayerNetwork implements AutoCloseable {

    private final NDManager manager;
    private final List<LayerSpec> layers;
    private final Map<String, NDArray> params = new LinkedHashMap<>();
    private final Map<String, NDArray> trainable = new LinkedHashMap<>();

    LayerNetwork(NDManager parent, Device device, List<LayerSpec> layers, long seed, Set<String> zeroInit) {
        this(parent, device, layers, seed, zeroInit, Map.of(), Set.of());
    }

    /**
     * As above, but tensors present in {@code initial} start from those values (a previous stage's best, or
     * the PCA start), and those in {@code frozen} are constants.
     */
    LayerNetwork(
            NDManager parent,
            Device device,
            List<LayerSpec> layers,
            long seed,
            Set<String> zeroInit,
            Map<String, float[]> initial,
            Set<String> frozen) {
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
                params.put(t.getKey(), array);
                if (frozen.contains(t.getKey()) == false) {
                    array.setRequiresGradient(true);
                    trainable.put(t.getKey(), array);
                }
            }
        }
    }

    /**
     * A residual adapter f(x) = P x + W2 relu(W1 x + b1) + b2 of hidden width {@code hidden}: P is the fixed
     * start ({@link #startTensors}), W2 and b2 start at zero ({@link #residualZeroInit}), so that f starts as P
     * (Matryoshka-Adaptor, Search-Adaptor, SMEC and the temperature trainer start from the corpus PCA rotation).
     */
    static List<LayerSpec> residualAdapter(int dim, int hidden) {
        return List.of(
                LayerSpec.linear("adapter.fc1", dim, hidden),
                LayerSpec.relu("adapter.relu", hidden),
                LayerSpec.linear("adapter.fc2", hidden, dim),
                LayerSpec.linearSkip(START, dim, dim));
    }

    static Set<String> residualZeroInit() {
        return Set.of("adapter.fc2.weight", "adapter.fc2.bias");
    }

    static final String START = "adapter.start";

    /** The start projection of {@link #residualAdapter}: the full PCA rotation of the corpus, no bias. */
    static Map<String, float[]> startTensors(PcaStart pca) {
        return Map.of(START + ".weight", pca.projection(pca.dim()), START + ".bias", new float[pca.dim()]);
    }

    /** The start projection never trains: the residual learns the difference from it. */
    static Set<String> startFrozen() {
        return Set.of(START + ".weight", START + ".bias");
    }

    List<LayerSpec> layers() {
        return layers;
    }

    Map<String, NDArray> trainable() {
        return trainable;
    }

    /** Every tensor by name, frozen ones included, in layer order. */
    Map<String, NDArray> parameters() {
        return params;
    }

    /** The start projection alone (P x): what the adapter computes before training; the recovery terms' target. */
    NDArray start(NDArray x) {
        return DjlLayers.linear(x, params.get(START + ".weight"), params.get(START + ".bias"));
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
                out.put(
                        t.getKey(),
                        new Tensor(
                                t.getKey(),
                                t.getValue(),
                                snapshot.get(t.getKey()).clone()));
            }
        }
        return out;
    }

    @Override
    public void close() {
        manager.close();
    }
}
