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

    private final ModelIndex models;

    @Inject
    public TransportCancelTrainingAction(TransportService transportService, ActionFilters actionFilters, ModelIndex models) {
        super(ModelActions.CANCEL.name(), transportService, actionFilters, ModelIdRequest::new);
        this.models = models;
    }

    @Override
    protected void doExecute(Task task, ModelIdRequest request, ActionListener<MapResponse> listener) {
        String id = request.modelId();
        // the flag is written only on the version whose state was read, so a job that ends meanwhile makes it a 409;
        // the answer is the state that refused the flag, or TRAINING once it is written
        models.updateUnlessRefused(
            id,
            model -> model.state() == ModelState.TRAINING ? null : model.state(),
            Map.of("cancel_requested", true),
            ModelState.TRAINING,
            ActionListener.wrap(state -> {
                if (state == ModelState.TRAINING) {
                    listener.onResponse(new MapResponse(Map.of("model_id", id, "cancel_requested", true), RestStatus.ACCEPTED));
                } else {
                    listener.onFailure(new OpenSearchStatusException("model [" + id + "] is [" + state.jsonName() + "], not [training]", RestStatus.CONFLICT));
                }
            }, e -> listener.onFailure(ModelIndex.isVersionConflict(e)
                // still training, but written to faster than we could read it: not the user's conflict
                ? new OpenSearchStatusException("model [" + id + "] kept changing while the cancel was being written; retry", RestStatus.SERVICE_UNAVAILABLE)
                : e))
        );
    }
}
