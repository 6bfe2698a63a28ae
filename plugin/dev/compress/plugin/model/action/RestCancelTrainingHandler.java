package dev.compress.plugin.model.action;

import static org.opensearch.rest.RestRequest.Method.POST;

import java.util.List;
import org.opensearch.rest.BaseRestHandler;
import org.opensearch.rest.RestRequest;
import org.opensearch.rest.action.RestStatusToXContentListener;
import org.opensearch.transport.client.node.NodeClient;

/**
 * {@code POST _plugins/compress/models/{model_id}/_cancel}: {@link TransportCancelTrainingAction};
 * the answer's status is the response's own (202 or 200, {@link CancelTrainingResponse}).
 */
public final class RestCancelTrainingHandler extends BaseRestHandler {

    @Override
    public String getName() {
        return "compress_cancel_training";
    }

    @Override
    public List<Route> routes() {
        return List.of(new Route(POST, ModelRoutes.MODEL + "/_cancel"));
    }

    @Override
    protected RestChannelConsumer prepareRequest(RestRequest request, NodeClient client) {
        NoRequestBody.check(request);
        ModelIdRequest cancel = new ModelIdRequest(request.param(ModelRoutes.MODEL_ID), false);
        return channel -> client.execute(ModelActions.CANCEL, cancel, new RestStatusToXContentListener<>(channel));
    }
}
