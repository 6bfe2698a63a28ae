package dev.compress.plugin.model.action;

import dev.compress.plugin.model.ModelIndex;
import dev.compress.plugin.model.ModelState;

import org.opensearch.OpenSearchStatusException;
import org.opensearch.action.support.ActionFilters;
import org.opensearch.action.support.HandledTransportAction;
import org.opensearch.common.inject.Inject;
import org.opensearch.core.action.ActionListener;
import org.opensearch.core.rest.RestStatus;
import org.opensearch.tasks.Task;
import org.opensearch.transport.TransportService;

import java.util.Map;

/**
 * {@code POST _plugins/compress/models/{id}/_cancel}: flags the model; the job, wherever it runs,
 * sees the flag within seconds, stops, and leaves the model {@code failed} with reason "cancelled".
 * A job that cannot stop early (PCA, truncation) runs to its end and is then refused {@code created}.
 */
public final class TransportCancelTrainingAction extends HandledTransportAction<ModelIdRequest, MapResponse> {

    /** Progress writes can move the document between our read and our write; each retry reads again. */
    private static final int ATTEMPTS = 10;

    private final ModelIndex models;

    @Inject
    public TransportCancelTrainingAction(TransportService transportService, ActionFilters actionFilters, ModelIndex models) {
        super(ModelActions.CANCEL.name(), transportService, actionFilters, ModelIdRequest::new);
        this.models = models;
    }

    @Override
    protected void doExecute(Task task, ModelIdRequest request, ActionListener<MapResponse> listener) {
        flag(request.modelId(), ATTEMPTS, listener);
    }

    /** The flag is written only on the version whose state was read, so a job that ends meanwhile makes it a 409. */
    private void flag(String id, int attemptsLeft, ActionListener<MapResponse> listener) {
        models.getVersioned(id, ActionListener.wrap(read -> {
            ModelState state = read.model().state();
            if (state != ModelState.TRAINING) {
                listener.onFailure(new OpenSearchStatusException("model [" + id + "] is [" + state.jsonName() + "], not [training]", RestStatus.CONFLICT));
                return;
            }
            models.updateIfUnchanged(read, Map.of("cancel_requested", true), ActionListener.wrap(
                ok -> listener.onResponse(new MapResponse(Map.of("model_id", id, "cancel_requested", true), RestStatus.ACCEPTED)),
                e -> {
                    if (ModelIndex.isVersionConflict(e) == false) {
                        listener.onFailure(e);
                    } else if (attemptsLeft > 1) {
                        flag(id, attemptsLeft - 1, listener);
                    } else {
                        // still training, but written to faster than we could read it: not the user's conflict
                        listener.onFailure(new OpenSearchStatusException("model [" + id + "] changed " + ATTEMPTS + " times while the cancel was being written; retry", RestStatus.SERVICE_UNAVAILABLE));
                    }
                }
            ));
        }, listener::onFailure));
    }
}
