package dev.compress.plugin.model.action;

import static org.opensearch.rest.RestRequest.Method.GET;

import java.util.List;
import org.opensearch.rest.BaseRestHandler;
import org.opensearch.rest.RestRequest;
import org.opensearch.rest.action.RestToXContentListener;
import org.opensearch.transport.client.node.NodeClient;

/**
 * {@code GET _plugins/compress/models/{model_id}[?include_weights=true]}: the model's state
 * document ({@link GetModelResponse}). The id is read as given, also one that looks like a route
 * ({@code models/_cancel} is the model {@code _cancel}).
 */
public final class RestGetModelHandler extends BaseRestHandler {

    @Override
    public String getName() {
        return "compress_get_model";
    }

    @Override
    public List<Route> routes() {
        return List.of(new Route(GET, ModelRoutes.MODEL));
    }

    @Override
    protected RestChannelConsumer prepareRequest(RestRequest request, NodeClient client) {
        ModelIdRequest get = new ModelIdRequest(
                request.param(ModelRoutes.MODEL_ID), request.paramAsBoolean("include_weights", false));
        return channel -> client.execute(ModelActions.GET, get, new RestToXContentListener<>(channel));
    }
}
