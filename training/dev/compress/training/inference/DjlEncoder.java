package dev.compress.training.inference;

import ai.djl.Device;
import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.Shape;
import dev.compress.training.engine.DjlRuntime;
import dev.compress.training.model.ModelArtifact;
import dev.compress.training.model.ModelMetadata;
import dev.compress.training.model.Tensor;
import java.util.HashMap;
import java.util.Map;

/**
 * Batched inference through DJL's PyTorch engine. The weights live in a manager owned by this
 * encoder (close it to free them); each {@link #encode} call works in its own sub-manager so no
 * intermediate array outlives the call.
 */
public final class DjlEncoder implements Encoder {

    private final ModelMetadata metadata;
    private final int outputDim;
    private final NDManager manager;
    private final Map<String, NDArray> params = new HashMap<>();

    public DjlEncoder(ModelArtifact model, int outputDim, Device device) {
        this.metadata = model.metadata();
        if (!metadata.outputDims().contains(outputDim)) {
            throw new IllegalArgumentException(
                    "model serves output dims " + metadata.outputDims() + ", not " + outputDim);
        }
        this.outputDim = outputDim;
        this.manager = DjlRuntime.engine().newBaseManager(device);
        for (Tensor t : model.tensors().values()) {
            params.put(t.name(), manager.create(t.data(), DjlLayers.shape(t.shape())));
        }
    }

    @Override
    public int inputDim() {
        return metadata.inputDim();
    }

    @Override
    public int outputDim() {
        return outputDim;
    }

    @Override
    public float[][] encode(float[][] batch) {
        int in = metadata.inputDim();
        float[] flat = new float[batch.length * in];
        for (int r = 0; r < batch.length; r++) {
            if (batch[r].length != in) {
                throw new IllegalArgumentException(
                        "row " + r + " has " + batch[r].length + " values, model expects " + in);
            }
            System.arraycopy(batch[r], 0, flat, r * in, in);
        }
        float[] result;
        try (NDManager step = manager.newSubManager()) {
            NDArray x = step.create(flat, new Shape(batch.length, in));
            NDArray y = DjlLayers.finish(
                    DjlLayers.forward(metadata.layers(), params, x),
                    outputDim,
                    ModelMetadata.NORM_L2.equals(metadata.normalization()));
            result = y.toFloatArray();
        }
        float[][] out = new float[batch.length][];
        for (int r = 0; r < batch.length; r++) {
            out[r] = java.util.Arrays.copyOfRange(result, r * outputDim, (r + 1) * outputDim);
        }
        return out;
    }

    @Override
    public void close() {
        manager.close();
    }
}
