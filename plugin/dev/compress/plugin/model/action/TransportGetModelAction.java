package dev.compress.plugin.model.action;

import dev.compress.plugin.model.ModelIndex;
import org.opensearch.action.support.ActionFilters;
import org.opensearch.action.support.HandledTransportAction;
import org.opensearch.common.inject.Inject;
import org.opensearch.core.action.ActionListener;
import org.opensearch.tasks.Task;
import org.opensearch.transport.TransportService;

/** {@code GET _plugins/compress/models/{id}}: state, method, dimensions, progress, evaluation; the model file only on request. */
public final class TransportGetModelAction extends HandledTransportAction<ModelIdRequest, GetModelResponse> {

    private final ModelIndex models;

    @Inject
    public TransportGetModelAction(TransportService transportService, ActionFilters actionFilters, ModelIndex models) {
        super(ModelActions.GET.name(), transportService, actionFilters, ModelIdRequest::new);
        this.models = models;
    }

    @Override
    protected void doExecute(Task task, ModelIdRequest request, ActionListener<GetModelResponse> listener) {
        models.get(
                request.modelId(),
                ActionListener.wrap(
                        model -> {
                            if (request.includeWeights() == false) {
                                listener.onResponse(new GetModelResponse(model, null));
                                return;
                            }
                            models.getModelFile(
                                    model, ActionListener.map(listener, file -> new GetModelResponse(model, file)));
                        },
                        listener::onFailure));
    }
}
