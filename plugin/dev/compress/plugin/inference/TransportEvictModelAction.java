package dev.compress.plugin.inference;

import java.io.IOException;
import java.util.List;
import java.util.Set;
import org.opensearch.action.FailedNodeException;
import org.opensearch.action.support.ActionFilters;
import org.opensearch.action.support.nodes.TransportNodesAction;
import org.opensearch.cluster.service.ClusterService;
import org.opensearch.common.inject.Inject;
import org.opensearch.core.common.io.stream.StreamInput;
import org.opensearch.threadpool.ThreadPool;
import org.opensearch.transport.TransportService;

/** Sends the eviction to every node; each drops the model (or every model) from its own {@link ModelCache}. */
public final class TransportEvictModelAction
        extends TransportNodesAction<
                EvictModelRequest, EvictModelResponse, EvictModelNodeRequest, EvictModelNodeResponse> {

    private final ModelCache modelCache;

    @Inject
    public TransportEvictModelAction(
            ThreadPool threadPool,
            ClusterService clusterService,
            TransportService transportService,
            ActionFilters actionFilters,
            ModelCache modelCache) {
        super(
                EvictModelAction.NAME,
                threadPool,
                clusterService,
                transportService,
                actionFilters,
                EvictModelRequest::new,
                EvictModelNodeRequest::new,
                ThreadPool.Names.MANAGEMENT,
                EvictModelNodeResponse.class);
        this.modelCache = modelCache;
    }

    @Override
    protected EvictModelResponse newResponse(
            EvictModelRequest request, List<EvictModelNodeResponse> responses, List<FailedNodeException> failures) {
        return new EvictModelResponse(clusterService.getClusterName(), responses, failures);
    }

    @Override
    protected EvictModelNodeRequest newNodeRequest(EvictModelRequest request) {
        return new EvictModelNodeRequest(request.modelId());
    }

    @Override
    protected EvictModelNodeResponse newNodeResponse(StreamInput in) throws IOException {
        return new EvictModelNodeResponse(in);
    }

    @Override
    protected EvictModelNodeResponse nodeOperation(EvictModelNodeRequest request) {
        String modelId = request.modelId();
        Set<String> evicted;
        if (modelId == null) {
            evicted = modelCache.evictAll();
        } else {
            evicted = modelCache.evict(modelId) ? Set.of(modelId) : Set.of();
        }
        return new EvictModelNodeResponse(clusterService.localNode(), evicted);
    }
}
