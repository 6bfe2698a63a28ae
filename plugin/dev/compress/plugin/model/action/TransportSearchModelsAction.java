package dev.compress.plugin.model.action;

import dev.compress.plugin.model.ModelIndex;
import org.opensearch.action.search.SearchResponse;
import org.opensearch.action.support.ActionFilters;
import org.opensearch.action.support.HandledTransportAction;
import org.opensearch.common.inject.Inject;
import org.opensearch.core.action.ActionListener;
import org.opensearch.tasks.Task;
import org.opensearch.transport.TransportService;

/**
 * {@code POST _plugins/compress/models/_search}: searches model state documents (never the chunks), with the queries
 * and aggregations {@link ModelSearchScope} allows.
 */
public final class TransportSearchModelsAction extends HandledTransportAction<SearchModelsRequest, SearchResponse> {

    private final ModelIndex models;

    @Inject
    public TransportSearchModelsAction(
            TransportService transportService, ActionFilters actionFilters, ModelIndex models) {
        super(ModelActions.SEARCH.name(), transportService, actionFilters, SearchModelsRequest::new);
        this.models = models;
    }

    @Override
    protected void doExecute(Task task, SearchModelsRequest request, ActionListener<SearchResponse> listener) {
        try {
            ModelSearchScope.check(request.source());
        } catch (IllegalArgumentException e) {
            listener.onFailure(e);
            return;
        }
        models.search(request.source(), listener);
    }
}
