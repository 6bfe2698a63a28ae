package dev.compress.plugin.inference;

import dev.compress.training.inference.Encoder;
import dev.compress.training.inference.VectorPrefix;
import dev.compress.training.model.ModelMetadata;

/**
 * A model ready for inference on this node: one encoder at the model's largest output dimension.
 * Smaller output dimensions of a nested model are prefixes of that output (renormalised when the
 * model normalises), since scaling a vector does not change its normalised prefix.
 *
 * @param weightBytes what the model costs in the cache (its file size: the encoder holds a copy of every weight)
 */
public record LoadedModel(String id, ModelMetadata metadata, Encoder encoder, long weightBytes) {

    public int inputDim() {
        return metadata.inputDim();
    }

    /** The output dimension to serve: {@code requested}, or the largest one the model serves when null. */
    public int outputDim(Integer requested) {
        if (requested == null) {
            return metadata.maxOutputDim();
        }
        if (metadata.outputDims().contains(requested) == false) {
            throw new IllegalArgumentException("model [" + id + "] serves output dimensions " + metadata.outputDims()
                    + ", not [" + requested + "]");
        }
        return requested;
    }

    /** Fails unless the model maps vectors to embeddings (a mask predictor scores dimensions instead). */
    public void requireEmbeddingOutput() {
        if (ModelMetadata.OUTPUT_EMBEDDING.equals(metadata.output()) == false) {
            throw new IllegalArgumentException("model [" + id + "] outputs [" + metadata.output() + "], not ["
                    + ModelMetadata.OUTPUT_EMBEDDING + "]: it cannot compress vectors");
        }
    }

    /** Fails with both numbers unless {@code length} is the model's input dimension. */
    public void requireInputLength(int length) {
        if (length != inputDim()) {
            throw new IllegalArgumentException(
                    "vector has " + length + " dimensions but model [" + id + "] expects " + inputDim());
        }
    }

    /** Encodes a batch in one call; every row must have {@link #inputDim()} values. */
    public float[][] encode(float[][] vectors, int outputDim) {
        float[][] full = encoder.encode(vectors);
        if (outputDim == encoder.outputDim()) {
            return full;
        }
        boolean l2 = ModelMetadata.NORM_L2.equals(metadata.normalization());
        for (int i = 0; i < full.length; i++) {
            full[i] = VectorPrefix.of(full[i], outputDim, l2);
        }
        return full;
    }
}
