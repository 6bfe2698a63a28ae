package dev.compress.plugin.model.action;

import static org.opensearch.rest.RestRequest.Method.DELETE;

import java.util.List;
import org.opensearch.rest.BaseRestHandler;
import org.opensearch.rest.RestRequest;
import org.opensearch.rest.action.RestToXContentListener;
import org.opensearch.transport.client.node.NodeClient;

/** {@code DELETE _plugins/compress/models/{model_id}}: {@link TransportDeleteModelAction}. */
public final class RestDeleteModelHandler extends BaseRestHandler {

    @Override
    public String getName() {
        return "compress_delete_model";
    }

    @Override
    public List<Route> routes() {
        return List.of(new Route(DELETE, ModelRoutes.MODEL));
    }

    @Override
    protected RestChannelConsumer prepareRequest(RestRequest request, NodeClient client) {
        NoRequestBody.check(request);
        ModelIdRequest delete = new ModelIdRequest(request.param(ModelRoutes.MODEL_ID), false);
        return channel -> client.execute(ModelActions.DELETE, delete, new RestToXContentListener<>(channel));
    }
}
