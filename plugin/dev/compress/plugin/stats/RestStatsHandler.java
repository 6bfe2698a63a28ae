package dev.compress.plugin.stats;

import static org.opensearch.rest.RestRequest.Method.GET;

import dev.compress.plugin.model.action.ModelRoutes;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.opensearch.core.common.Strings;
import org.opensearch.rest.BaseRestHandler;
import org.opensearch.rest.RestRequest;
import org.opensearch.rest.action.RestActions;
import org.opensearch.transport.client.node.NodeClient;

/**
 * {@code GET _plugins/compress/stats}, {@code GET _plugins/compress/{node_id}/stats} and either with
 * {@code /{stat}}, as the k-NN plugin's stats API: {@code node_id} a comma list of node ids, names or
 * node filters ({@code _local}, {@code data:true}); {@code stat} a comma list of statistic names,
 * cluster-level or per node. An unknown statistic is a 400 naming it and listing the known ones.
 */
public final class RestStatsHandler extends BaseRestHandler {

    static final String NODE_ID = "node_id";
    static final String STAT = "stat";

    @Override
    public String getName() {
        return "compress_stats";
    }

    @Override
    public List<Route> routes() {
        String stats = "/stats";
        String nodes = ModelRoutes.BASE + "/{" + NODE_ID + "}" + stats;
        return List.of(
                new Route(GET, ModelRoutes.BASE + stats),
                new Route(GET, ModelRoutes.BASE + stats + "/{" + STAT + "}"),
                new Route(GET, nodes),
                new Route(GET, nodes + "/{" + STAT + "}"));
    }

    @Override
    protected RestChannelConsumer prepareRequest(RestRequest request, NodeClient client) {
        String[] nodeIds = Strings.splitStringByCommaToArray(request.param(NODE_ID));
        Set<String> stats = requestedStats(request.param(STAT));
        StatsRequest statsRequest = new StatsRequest(nodeIds, stats);
        statsRequest.timeout(request.param("timeout"));
        return channel -> client.execute(
                StatsAction.INSTANCE, statsRequest, new RestActions.NodesResponseRestListener<>(channel));
    }

    /** The statistics named in {@code param} (a comma list), or none (all) when it is absent. */
    static Set<String> requestedStats(String param) {
        Set<String> requested = new LinkedHashSet<>(List.of(Strings.splitStringByCommaToArray(param)));
        Set<String> known = new TreeSet<>(NodeStats.names());
        known.addAll(ClusterStats.names());
        for (String name : requested) {
            if (known.contains(name) == false) {
                throw new IllegalArgumentException(
                        "[" + STAT + "] unknown statistic [" + name + "]; known statistics are " + known);
            }
        }
        return requested;
    }
}
