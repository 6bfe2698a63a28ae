package dev.compress.plugin.stats;

import dev.compress.plugin.inference.ModelCache;
import dev.compress.plugin.train.TrainingJobs;
import java.io.IOException;
import java.util.List;
import org.opensearch.action.FailedNodeException;
import org.opensearch.action.support.ActionFilters;
import org.opensearch.action.support.nodes.TransportNodesAction;
import org.opensearch.cluster.service.ClusterService;
import org.opensearch.common.inject.Inject;
import org.opensearch.core.common.io.stream.StreamInput;
import org.opensearch.threadpool.ThreadPool;
import org.opensearch.transport.TransportService;

/** Reads each node's statistics on that node, and the cluster-level ones on the coordinating node. */
public final class TransportStatsAction
        extends TransportNodesAction<StatsRequest, StatsResponse, StatsNodeRequest, StatsNodeResponse> {

    private final NodeStats.Sources sources;

    @Inject
    public TransportStatsAction(
            ThreadPool threadPool,
            ClusterService clusterService,
            TransportService transportService,
            ActionFilters actionFilters,
            CompressCounters counters,
            ModelCache modelCache,
            TrainingJobs trainingJobs) {
        super(
                StatsAction.NAME,
                threadPool,
                clusterService,
                transportService,
                actionFilters,
                StatsRequest::new,
                StatsNodeRequest::new,
                ThreadPool.Names.MANAGEMENT,
                StatsNodeResponse.class);
        this.sources = new NodeStats.Sources(counters, modelCache, trainingJobs);
    }

    @Override
    protected StatsResponse newResponse(
            StatsRequest request, List<StatsNodeResponse> responses, List<FailedNodeException> failures) {
        return new StatsResponse(
                clusterService.getClusterName(),
                responses,
                failures,
                ClusterStats.read(clusterService.state(), request.stats()));
    }

    @Override
    protected StatsNodeRequest newNodeRequest(StatsRequest request) {
        return new StatsNodeRequest(request.stats());
    }

    @Override
    protected StatsNodeResponse newNodeResponse(StreamInput in) throws IOException {
        return new StatsNodeResponse(in);
    }

    @Override
    protected StatsNodeResponse nodeOperation(StatsNodeRequest request) {
        return new StatsNodeResponse(clusterService.localNode(), NodeStats.read(sources, request.stats()));
    }
}
