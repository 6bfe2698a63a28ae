package dev.compress.plugin.info;

import java.util.List;
import org.opensearch.rest.BaseRestHandler;
import org.opensearch.rest.RestRequest;
import org.opensearch.rest.action.RestToXContentListener;
import org.opensearch.transport.client.node.NodeClient;

/** {@code GET _plugins/compress}. */
public final class RestInfoAction extends BaseRestHandler {

    @Override
    public String getName() {
        return "compress_info";
    }

    @Override
    public List<Route> routes() {
        return List.of(new Route(RestRequest.Method.GET, "/_plugins/compress"));
    }

    @Override
    protected RestChannelConsumer prepareRequest(RestRequest request, NodeClient client) {
        return channel -> client.execute(InfoAction.INSTANCE, new InfoRequest(), new RestToXContentListener<>(channel));
    }
}
