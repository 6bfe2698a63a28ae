package dev.compress.plugin.inference;

import java.io.IOException;
import java.util.List;
import org.opensearch.action.FailedNodeException;
import org.opensearch.action.support.nodes.BaseNodesResponse;
import org.opensearch.cluster.ClusterName;
import org.opensearch.core.common.io.stream.StreamInput;
import org.opensearch.core.common.io.stream.StreamOutput;
import org.opensearch.core.xcontent.ToXContentFragment;
import org.opensearch.core.xcontent.XContentBuilder;

/**
 * Every node's answer to an {@link EvictModelRequest}; {@link #failures()} lists nodes that did not
 * answer. As JSON (after the {@code _nodes} header and {@code cluster_name}), the ids each node dropped:
 * {@code "nodes": {"<node id>": {"name": "n1", "evicted": ["m1"]}}}.
 */
public final class EvictModelResponse extends BaseNodesResponse<EvictModelNodeResponse> implements ToXContentFragment {

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
    public XContentBuilder toXContent(XContentBuilder builder, Params params) throws IOException {
        builder.startObject("nodes");
        for (EvictModelNodeResponse node : getNodes()) {
            builder.startObject(node.getNode().getId());
            builder.field("name", node.getNode().getName());
            builder.field("evicted", node.evictedIds());
            builder.endObject();
        }
        return builder.endObject();
    }

    @Override
    protected void writeNodesTo(StreamOutput out, List<EvictModelNodeResponse> nodes) throws IOException {
        out.writeList(nodes);
    }
}
