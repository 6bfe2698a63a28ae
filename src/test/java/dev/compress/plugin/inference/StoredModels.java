package dev.compress.plugin.inference;

import dev.compress.plugin.model.ModelIndex;
import dev.compress.plugin.model.ModelState;
import dev.compress.training.model.ModelArtifact;
import dev.compress.training.model.ModelFile;
import dev.compress.training.model.ModelMetadata;
import java.util.Map;
import org.opensearch.action.support.PlainActionFuture;

/** Writes models into the model index the way training does: a state document, then the file of a created model. */
public final class StoredModels {

    private static final long CREATED_AT = 1L;

    private StoredModels() {}

    public static void store(ModelIndex index, String id, ModelArtifact artifact, ModelState state) {
        store(index, id, artifact, state, ModelFile.toBytes(artifact));
    }

    /**
     * As above, but the model's file holds {@code file}, whatever the document says: a model written into the
     * model index by hand (forged or damaged).
     */
    public static void store(ModelIndex index, String id, ModelArtifact artifact, ModelState state, byte[] file) {
        ModelMetadata meta = artifact.metadata();
        Map<String, Object> document = Map.of(
                "doc_type", "model",
                "model_id", id,
                "state", ModelState.TRAINING.jsonName(),
                "method", meta.method(),
                "input_dimension", meta.vectorDim(),
                "dimensions", meta.outputDims(),
                "created_at", CREATED_AT);
        PlainActionFuture<Void> created = PlainActionFuture.newFuture();
        index.create(id, document, created);
        created.actionGet();
        if (state == ModelState.TRAINING) {
            return;
        }
        if (state == ModelState.FAILED) {
            PlainActionFuture<Boolean> failed = PlainActionFuture.newFuture();
            index.failTraining(new ModelIndex.Job(id, CREATED_AT), "failed on purpose", failed);
            failed.actionGet();
            return;
        }
        PlainActionFuture<ModelIndex.Completion> stored = PlainActionFuture.newFuture();
        index.completeTraining(
                new ModelIndex.Job(id, CREATED_AT), file, Map.of("state", state.jsonName()), () -> false, stored);
        if (stored.actionGet() != ModelIndex.Completion.CREATED) {
            throw new AssertionError("model [" + id + "] was not stored: " + stored.actionGet());
        }
    }
}
