package dev.compress.plugin.stats;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import org.opensearch.action.FailedNodeException;
import org.opensearch.action.support.nodes.BaseNodesResponse;
import org.opensearch.cluster.ClusterName;
import org.opensearch.core.common.io.stream.StreamInput;
import org.opensearch.core.common.io.stream.StreamOutput;
import org.opensearch.core.xcontent.ToXContentFragment;
import org.opensearch.core.xcontent.XContentBuilder;

/**
 * The k-NN plugin's stats shape: after the {@code _nodes} header and {@code cluster_name} come the
 * cluster-level statistics ({@link ClusterStats}), then {@code "nodes": {"<node id>": {...}}} with
 * each node's ({@link NodeStats}).
 */
public final class StatsResponse extends BaseNodesResponse<StatsNodeResponse> implements ToXContentFragment {

    private final Map<String, Object> clusterStats;

    StatsResponse(
            ClusterName clusterName,
            List<StatsNodeResponse> nodes,
            List<FailedNodeException> failures,
            Map<String, Object> clusterStats) {
        super(clusterName, nodes, failures);
        this.clusterStats = clusterStats;
    }

    public StatsResponse(StreamInput in) throws IOException {
        super(in);
        clusterStats = in.readMap();
    }

    @Override
    public void writeTo(StreamOutput out) throws IOException {
        super.writeTo(out);
        out.writeMap(clusterStats);
    }

    @Override
    protected List<StatsNodeResponse> readNodesFrom(StreamInput in) throws IOException {
        return in.readList(StatsNodeResponse::new);
    }

    @Override
    protected void writeNodesTo(StreamOutput out, List<StatsNodeResponse> nodes) throws IOException {
        out.writeList(nodes);
    }

    @Override
    public XContentBuilder toXContent(XContentBuilder builder, Params params) throws IOException {
        for (Map.Entry<String, Object> stat : clusterStats.entrySet()) {
            builder.field(stat.getKey(), stat.getValue());
        }
        builder.startObject("nodes");
        for (StatsNodeResponse node : getNodes()) {
            builder.startObject(node.getNode().getId());
            builder.field("name", node.getNode().getName());
            for (Map.Entry<String, Long> stat : node.stats().entrySet()) {
                builder.field(stat.getKey(), stat.getValue());
            }
            builder.endObject();
        }
        return builder.endObject();
    }
}
