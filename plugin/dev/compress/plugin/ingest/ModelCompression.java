package dev.compress.plugin.ingest;

import dev.compress.plugin.inference.LoadedModel;
import dev.compress.plugin.inference.ModelCache;
import java.util.function.Supplier;
import org.opensearch.core.action.ActionListener;

/**
 * Compression through a stored model, fetched from the node's {@link ModelCache} at each sub-batch
 * (a cache hit after the first), so a pipeline can be created before its model exists or is created.
 */
final class ModelCompression implements VectorCompression {

    private final String modelId;
    private final Integer dimension;
    private final Supplier<ModelCache> cache;

    /** @param cache the node's cache; a supplier because processors are registered before node components exist */
    ModelCompression(String modelId, Integer dimension, Supplier<ModelCache> cache) {
        this.modelId = modelId;
        this.dimension = dimension;
        this.cache = cache;
    }

    @Override
    public void resolve(ActionListener<VectorTransform> listener) {
        cache.get()
                .get(
                        modelId,
                        ActionListener.wrap(
                                model -> {
                                    VectorTransform transform;
                                    try {
                                        transform = transform(model);
                                    } catch (IllegalArgumentException e) {
                                        listener.onFailure(e);
                                        return;
                                    }
                                    listener.onResponse(transform);
                                },
                                listener::onFailure));
    }

    private VectorTransform transform(LoadedModel model) {
        model.requireEmbeddingOutput();
        int outputDim = model.outputDim(dimension);
        return new VectorTransform() {
            @Override
            public void check(float[] vector) {
                model.requireInputLength(vector.length);
            }

            @Override
            public float[][] apply(float[][] vectors) {
                return model.encode(vectors, outputDim);
            }
        };
    }
}
