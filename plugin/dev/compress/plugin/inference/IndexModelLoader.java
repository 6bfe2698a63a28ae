package dev.compress.plugin.inference;

import dev.compress.plugin.model.ModelIndex;
import dev.compress.plugin.model.ModelRecord;
import dev.compress.plugin.model.ModelState;
import dev.compress.training.inference.CpuEncoders;
import dev.compress.training.inference.Encoder;
import dev.compress.training.model.ModelArtifact;
import dev.compress.training.model.ModelFile;
import dev.compress.training.model.ModelMetadata;
import java.util.concurrent.Executor;
import org.opensearch.OpenSearchStatusException;
import org.opensearch.core.action.ActionListener;
import org.opensearch.core.rest.RestStatus;

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
        modelIndex.get(
                modelId,
                ActionListener.wrap(
                        record -> {
                            try {
                                if (record.state() != ModelState.CREATED) {
                                    listener.onFailure(notCreated(record));
                                    return;
                                }
                                // the file's size and chunk count, read before any chunk is fetched
                                record.modelSizeBytes();
                                record.chunkCount();
                            } catch (RuntimeException e) {
                                listener.onFailure(unusable(modelId, e));
                                return;
                            }
                            modelIndex.getModelFile(
                                    record,
                                    ActionListener.wrap(
                                            bytes -> executor.execute(() -> {
                                                LoadedModel model;
                                                try {
                                                    model = parse(record, bytes);
                                                } catch (RuntimeException e) {
                                                    listener.onFailure(unusable(modelId, e));
                                                    return;
                                                }
                                                listener.onResponse(model);
                                            }),
                                            e -> listener.onFailure(
                                                    e instanceof OpenSearchStatusException
                                                            ? e
                                                            : unusable(modelId, e))));
                        },
                        listener::onFailure));
    }

    /**
     * Parses a model file (magic, format version, checksum, every tensor's shape) and checks it against its
     * state document: a file that is not what the document says it is, e.g. written into the model index by
     * hand, is refused before it serves anything.
     */
    static LoadedModel parse(ModelRecord record, byte[] bytes) {
        ModelArtifact artifact = ModelFile.fromBytes(bytes);
        if (artifact.metadata().vectorDim() != record.inputDimension()) {
            throw new IllegalStateException("its file reads "
                    + artifact.metadata().vectorDim() + "-d vectors, its document says " + record.inputDimension());
        }
        boolean maskModel =
                ModelMetadata.OUTPUT_DIMENSION_SCORES.equals(artifact.metadata().output());
        if (maskModel == false && artifact.metadata().outputDims().equals(record.dimensions()) == false) {
            throw new IllegalStateException("its file serves dimensions "
                    + artifact.metadata().outputDims() + ", its document says " + record.dimensions());
        }
        Encoder encoder = CpuEncoders.forServing(artifact, artifact.metadata().maxOutputDim());
        return new LoadedModel(record.id(), artifact.metadata(), encoder, bytes.length);
    }

    /** A model whose document or file cannot serve: a 409 naming the model and the reason, never a 500. */
    private static OpenSearchStatusException unusable(String modelId, Exception e) {
        return new OpenSearchStatusException(
                "model [" + modelId + "] cannot be used: " + e.getMessage() + "; delete it and train it again",
                RestStatus.CONFLICT,
                e);
    }

    private static OpenSearchStatusException notCreated(ModelRecord record) {
        return new OpenSearchStatusException(
                "model [" + record.id() + "] is in state [" + record.state().jsonName()
                        + "]; only [created] models can be used",
                RestStatus.BAD_REQUEST);
    }
}
