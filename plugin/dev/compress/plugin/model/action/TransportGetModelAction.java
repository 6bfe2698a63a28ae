package dev.compress.plugin.model.action;

import dev.compress.plugin.model.ModelFields;
import dev.compress.plugin.model.ModelIndex;

import org.opensearch.action.support.ActionFilters;
import org.opensearch.action.support.HandledTransportAction;
import org.opensearch.common.inject.Inject;
import org.opensearch.core.action.ActionListener;
import org.opensearch.core.rest.RestStatus;
import org.opensearch.tasks.Task;
import org.opensearch.transport.TransportService;

import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;

/** {@code GET _plugins/compress/models/{id}}: state, method, dimensions, progress, evaluation; the model file only on request. */
public final class TransportGetModelAction extends HandledTransportAction<ModelIdRequest, MapResponse> {

    private final ModelIndex models;

    @Inject
    public TransportGetModelAction(TransportService transportService, ActionFilters actionFilters, ModelIndex models) {
        super(ModelActions.GET.name(), transportService, actionFilters, ModelIdRequest::new);
        this.models = models;
    }

    @Override
    protected void doExecute(Task task, ModelIdRequest request, ActionListener<MapResponse> listener) {
        models.get(request.modelId(), ActionListener.wrap(model -> {
            Map<String, Object> body = new LinkedHashMap<>(model.source());
            body.remove(ModelFields.DOC_TYPE);
            if (request.includeWeights() == false) {
                listener.onResponse(new MapResponse(body, RestStatus.OK));
                return;
            }
            models.getModelFile(model, ActionListener.wrap(file -> {
                body.put("model_file", Base64.getEncoder().encodeToString(file));
                listener.onResponse(new MapResponse(body, RestStatus.OK));
            }, listener::onFailure));
        }, listener::onFailure));
    }
}
