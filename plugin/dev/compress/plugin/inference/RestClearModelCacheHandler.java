package dev.compress.plugin.inference;

import static org.opensearch.rest.RestRequest.Method.POST;

import dev.compress.plugin.model.action.ModelRoutes;
import dev.compress.plugin.model.action.NoRequestBody;
import java.util.List;
import org.opensearch.rest.BaseRestHandler;
import org.opensearch.rest.RestRequest;
import org.opensearch.rest.action.RestActions;
import org.opensearch.transport.client.node.NodeClient;

/**
 * {@code POST _plugins/compress/models/{model_id}/_clear_cache} drops one model from every node's
 * cache, {@code POST _plugins/compress/models/_clear_cache} every model ({@link EvictModelAction}).
 * Nodes load a dropped model again from the model index at its next use. The model id is not looked
 * up: a node may hold a copy of a model the index no longer has, and this is how to drop it.
 */
public final class RestClearModelCacheHandler extends BaseRestHandler {

    static final String CLEAR_CACHE = "/_clear_cache";

    @Override
    public String getName() {
        return "compress_clear_model_cache";
    }

    @Override
    public List<Route> routes() {
        return List.of(
                new Route(POST, ModelRoutes.MODEL + CLEAR_CACHE), new Route(POST, ModelRoutes.MODELS + CLEAR_CACHE));
    }

    @Override
    protected RestChannelConsumer prepareRequest(RestRequest request, NodeClient client) {
        NoRequestBody.check(request);
        String modelId = request.param(ModelRoutes.MODEL_ID);
        EvictModelRequest evict = modelId == null ? EvictModelRequest.allModels() : new EvictModelRequest(modelId);
        return channel ->
                client.execute(EvictModelAction.INSTANCE, evict, new RestActions.NodesResponseRestListener<>(channel));
    }
}
