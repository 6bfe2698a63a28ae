package dev.compress.training.trainer;

import ai.djl.Device;
import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.Shape;
import ai.djl.nn.Activation;
import dev.compress.training.inference.DjlLayers;
import dev.compress.training.model.LayerSpec;
import dev.compress.training.model.Tensor;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * DIVE's network: Linear(D, h1) - BatchNorm - ReLU - Linear(h1, h2) - ReLU - Linear(h2, H*k), plus a fixed
 * linear skip P x from the input, the output read as H heads of k values, each L2-normalised. P holds the
 * corpus principal axes ({@link PcaStart}: head 1 the first k, the other heads the next ones) and the last
 * Linear starts at zero, so head 1 starts as PCA to k dimensions and the MLP learns the difference; the
 * paper's network has no skip and starts from random weights, which ends below PCA on unseen queries. Other
 * weights are initialised in Java from the seed (PyTorch's default uniform(+-1/sqrt(fan_in))), so runs are
 * reproducible whatever the engine's own generator does.
 */
final class DiveNetwork implements AutoCloseable {

    static final double BN_EPS = 1e-5;

    private final NDManager manager;
    private final int heads;
    private final int dims;
    private final List<LayerSpec> layers;
    private final Map<String, NDArray> params = new LinkedHashMap<>();
    private final Map<String, NDArray> trainable = new LinkedHashMap<>();

    static final String START = "start";

    /** @param start the fixed skip projection, row-major [heads * dims, inputDim] */
    DiveNetwork(
            NDManager parent,
            Device device,
            int inputDim,
            int hidden1,
            int hidden2,
            int heads,
            int dims,
            long seed,
            float[] start) {
        this.manager = parent.newSubManager(device);
        this.heads = heads;
        this.dims = dims;
        this.layers = layers(inputDim, hidden1, hidden2, heads * dims);
        Random rnd = new Random(seed);
        for (LayerSpec layer : layers) {
            for (Map.Entry<String, int[]> t : layer.requiredTensors().entrySet()) {
                String name = t.getKey();
                int[] shape = t.getValue();
                float[] values = new float[shape.length == 2 ? shape[0] * shape[1] : shape[0]];
                boolean learn = true;
                if (name.startsWith(START + ".")) {
                    if (name.endsWith(".weight")) {
                        System.arraycopy(start, 0, values, 0, values.length);
                    }
                    learn = false;
                } else if (name.startsWith("fc3.")) {
                    // zero: the network starts as its skip projection
                } else if (name.endsWith(".weight") || name.endsWith(".bias")) {
                    double bound = 1 / Math.sqrt(layer.inputDim());
                    for (int i = 0; i < values.length; i++) {
                        values[i] = (float) ((rnd.nextDouble() * 2 - 1) * bound);
                    }
                } else if (name.endsWith(".gamma") || name.endsWith(".running_var")) {
                    java.util.Arrays.fill(values, 1f);
                    learn = name.endsWith(".gamma");
                } else {
                    learn = name.endsWith(".beta");
                }
                NDArray array = manager.create(values, shapeOf(shape));
                if (learn) {
                    array.setRequiresGradient(true);
                    trainable.put(name, array);
                }
                params.put(name, array);
            }
        }
    }

    private static List<LayerSpec> layers(int in, int h1, int h2, int out) {
        List<LayerSpec> l = new ArrayList<>();
        l.add(LayerSpec.linear("fc1", in, h1));
        l.add(LayerSpec.batchNorm("bn1", h1, BN_EPS));
        l.add(LayerSpec.relu("relu1", h1));
        l.add(LayerSpec.linear("fc2", h1, h2));
        l.add(LayerSpec.relu("relu2", h2));
        l.add(LayerSpec.linear("fc3", h2, out));
        l.add(LayerSpec.linearSkip(START, in, out));
        return l;
    }

    Map<String, NDArray> trainable() {
        return trainable;
    }

    /** Training-mode forward (batch statistics, running statistics updated): [N, D] -> [N, H, k], heads normalised. */
    NDArray forwardTrain(NDArray x) {
        NDArray h = DjlLayers.linear(x, params.get("fc1.weight"), params.get("fc1.bias"));
        h = Activation.relu(DjlLayers.batchNorm(h, params, "bn1", (float) BN_EPS, true));
        h = Activation.relu(DjlLayers.linear(h, params.get("fc2.weight"), params.get("fc2.bias")));
        NDArray out = DjlLayers.linear(h, params.get("fc3.weight"), params.get("fc3.bias"))
                .add(DjlLayers.linear(x, params.get(START + ".weight"), params.get(START + ".bias")));
        return DjlLayers.l2Normalize(out.reshape(x.getShape().get(0), heads, dims));
    }

    /** Inference-mode head 1 ([N, D] -> [N, k], normalised): exactly what the exported model computes. */
    NDArray forwardHead1(NDArray x) {
        return DjlLayers.finish(DjlLayers.forward(layers, params, x), dims, true);
    }

    /** Copies of every parameter and running statistic (for keeping the best epoch). */
    Map<String, float[]> snapshot() {
        Map<String, float[]> s = new LinkedHashMap<>();
        params.forEach((k, v) -> s.put(k, v.toFloatArray()));
        return s;
    }

    /**
     * The exported layer stack and tensors: head 1 only, i.e. the first k rows of fc3 and of the skip. The other
     * heads only shape training (NT-Xent) and are dropped, as in the paper.
     */
    Map<String, Tensor> exportTensors(Map<String, float[]> snapshot) {
        Map<String, Tensor> out = new LinkedHashMap<>();
        for (LayerSpec layer : exportLayers()) {
            for (Map.Entry<String, int[]> t : layer.requiredTensors().entrySet()) {
                float[] values = snapshot.get(t.getKey());
                int n = t.getValue().length == 2 ? t.getValue()[0] * t.getValue()[1] : t.getValue()[0];
                out.put(t.getKey(), new Tensor(t.getKey(), t.getValue(), java.util.Arrays.copyOf(values, n)));
            }
        }
        return out;
    }

    List<LayerSpec> exportLayers() {
        List<LayerSpec> l = new ArrayList<>(layers);
        LayerSpec skip = l.remove(l.size() - 1);
        LayerSpec last = l.remove(l.size() - 1);
        l.add(LayerSpec.linear(last.name(), last.inputDim(), dims));
        l.add(LayerSpec.linearSkip(skip.name(), skip.inputDim(), dims));
        return l;
    }

    static Shape shapeOf(int[] dims) {
        long[] l = new long[dims.length];
        for (int i = 0; i < dims.length; i++) {
            l[i] = dims[i];
        }
        return new Shape(l);
    }

    @Override
    public void close() {
        manager.close();
    }
}
