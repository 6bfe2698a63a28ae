package dev.compress.plugin.warmup;

import static org.opensearch.rest.RestRequest.Method.GET;

import dev.compress.plugin.model.action.ModelRoutes;
import java.util.List;
import org.opensearch.action.support.IndicesOptions;
import org.opensearch.core.common.Strings;
import org.opensearch.rest.BaseRestHandler;
import org.opensearch.rest.RestRequest;
import org.opensearch.rest.action.RestToXContentListener;
import org.opensearch.transport.client.node.NodeClient;

/**
 * {@code GET _plugins/compress/warmup/{index}} ({@link TransportWarmupAction}), {@code index} a comma
 * list of index names, aliases or patterns; {@code ?searches=n} the searches each node runs to warm
 * the JVM (default {@value WarmupRequest#DEFAULT_SEARCHES}, 0 to read files only). An unknown index is a 404
 * naming it, as for any index API; a {@code searches} that is not a whole number from 0 to {@value
 * WarmupRequest#MAX_SEARCHES} is a 400 naming it.
 */
public final class RestWarmupHandler extends BaseRestHandler {

    static final String INDEX = "index";
    static final String SEARCHES = "searches";

    @Override
    public String getName() {
        return "compress_warmup";
    }

    @Override
    public List<Route> routes() {
        return List.of(new Route(GET, ModelRoutes.BASE + "/warmup/{" + INDEX + "}"));
    }

    @Override
    protected RestChannelConsumer prepareRequest(RestRequest request, NodeClient client) {
        WarmupRequest warmup = new WarmupRequest(Strings.splitStringByCommaToArray(request.param(INDEX)));
        warmup.indicesOptions(IndicesOptions.fromRequest(request, warmup.indicesOptions()));
        String searches = request.param(SEARCHES);
        if (searches != null) {
            try {
                warmup.searches(Integer.parseInt(searches));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("[" + SEARCHES + "] must be a whole number, got [" + searches + "]");
            }
        }
        return channel -> client.execute(WarmupAction.INSTANCE, warmup, new RestToXContentListener<>(channel));
    }
}
