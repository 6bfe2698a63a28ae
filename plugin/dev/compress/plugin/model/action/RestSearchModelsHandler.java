package dev.compress.plugin.model.action;

import static org.opensearch.rest.RestRequest.Method.GET;
import static org.opensearch.rest.RestRequest.Method.POST;

import java.io.IOException;
import java.util.List;
import org.opensearch.rest.BaseRestHandler;
import org.opensearch.rest.RestRequest;
import org.opensearch.rest.action.RestToXContentListener;
import org.opensearch.search.builder.SearchSourceBuilder;
import org.opensearch.transport.client.node.NodeClient;

/**
 * {@code GET|POST _plugins/compress/models/_search}: a search body (or {@code source} parameter)
 * over the model state documents, answered as a search response ({@link TransportSearchModelsAction}).
 */
public final class RestSearchModelsHandler extends BaseRestHandler {

    @Override
    public String getName() {
        return "compress_search_models";
    }

    @Override
    public List<Route> routes() {
        return List.of(
                new Route(GET, ModelRoutes.MODELS + "/_search"), new Route(POST, ModelRoutes.MODELS + "/_search"));
    }

    @Override
    protected RestChannelConsumer prepareRequest(RestRequest request, NodeClient client) throws IOException {
        SearchSourceBuilder source = new SearchSourceBuilder();
        if (request.hasContentOrSourceParam()) {
            source.parseXContent(request.contentOrSourceParamParser());
        }
        return channel -> client.execute(
                ModelActions.SEARCH, new SearchModelsRequest(source), new RestToXContentListener<>(channel));
    }
}
