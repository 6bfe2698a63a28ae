package dev.compress.plugin.inference;

import dev.compress.plugin.model.ModelIndex;
import dev.compress.plugin.model.ModelRecord;
import dev.compress.plugin.model.ModelState;
import dev.compress.training.inference.CpuEncoders;
import dev.compress.training.inference.Encoder;
import dev.compress.training.model.ModelArtifact;
import dev.compress.training.model.ModelFile;

import org.opensearch.OpenSearchStatusException;
import org.opensearch.core.action.ActionListener;
import org.opensearch.core.rest.RestStatus;

import java.util.concurrent.Executor;

/**
 * Loads a {@code created} model from the model index: state document, then file chunks, then parsing
 * and building the CPU encoder on {@code executor} (parsing a large model must not hold a transport thread).
 */
public final class IndexModelLoader implements ModelLoader {

    private final ModelIndex modelIndex;
    private final Executor executor;

    public IndexModelLoader(ModelIndex modelIndex, Executor executor) {
        this.modelIndex = modelIndex;
        this.executor = executor;
    }

    @Override
    public void load(String modelId, ActionListener<LoadedModel> listener) {
        modelIndex.get(modelId, ActionListener.wrap(record -> {
            if (record.state() != ModelState.CREATED) {
                listener.onFailure(notCreated(record));
                return;
            }
            modelIndex.getModelFile(record, ActionListener.wrap(bytes -> executor.execute(() -> {
                LoadedModel model;
                try {
                    model = parse(modelId, bytes);
                } catch (RuntimeException e) {
                    listener.onFailure(new IllegalStateException("model [" + modelId + "] cannot be loaded: " + e.getMessage(), e));
                    return;
                }
                listener.onResponse(model);
            }), listener::onFailure));
        }, listener::onFailure));
    }

    static LoadedModel parse(String modelId, byte[] bytes) {
        ModelArtifact artifact = ModelFile.fromBytes(bytes);
        Encoder encoder = CpuEncoders.forServing(artifact, artifact.metadata().maxOutputDim());
        return new LoadedModel(modelId, artifact.metadata(), encoder, bytes.length);
    }

    private static OpenSearchStatusException notCreated(ModelRecord record) {
        return new OpenSearchStatusException(
            "model [" + record.id() + "] is in state [" + record.state().jsonName() + "]; only [created] models can be used",
            RestStatus.BAD_REQUEST
        );
    }
}
