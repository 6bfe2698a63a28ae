package dev.compress.plugin.inference;

import java.io.IOException;
import java.util.List;
import org.opensearch.action.FailedNodeException;
import org.opensearch.action.support.nodes.BaseNodesResponse;
import org.opensearch.cluster.ClusterName;
import org.opensearch.core.common.io.stream.StreamInput;
import org.opensearch.core.common.io.stream.StreamOutput;

/** Every node's answer to an {@link EvictModelRequest}; {@link #failures()} lists nodes that did not answer. */
public final class EvictModelResponse extends BaseNodesResponse<EvictModelNodeResponse> {

    public EvictModelResponse(StreamInput in) throws IOException {
        super(in);
    }

    EvictModelResponse(
            ClusterName clusterName, List<EvictModelNodeResponse> nodes, List<FailedNodeException> failures) {
        super(clusterName, nodes, failures);
    }

    @Override
    protected List<EvictModelNodeResponse> readNodesFrom(StreamInput in) throws IOException {
        return in.readList(EvictModelNodeResponse::new);
    }

    @Override
    protected void writeNodesTo(StreamOutput out, List<EvictModelNodeResponse> nodes) throws IOException {
        out.writeList(nodes);
    }
}
