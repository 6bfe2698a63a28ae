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
        models.get(id, ActionListener.wrap(model -> {
            if (model.state() != ModelState.TRAINING) {
                listener.onFailure(new OpenSearchStatusException("model [" + id + "] is [" + model.state().jsonName() + "], not [training]", RestStatus.CONFLICT));
                return;
            }
            models.update(id, Map.of("cancel_requested", true), ActionListener.wrap(
                ok -> listener.onResponse(new MapResponse(Map.of("model_id", id, "cancel_requested", true), RestStatus.ACCEPTED)),
                listener::onFailure
            ));
        }, listener::onFailure));
    }
}
