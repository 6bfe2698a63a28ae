package dev.compress.plugin.stats;

import java.io.IOException;
import java.util.Map;
import org.opensearch.action.support.nodes.BaseNodeResponse;
import org.opensearch.cluster.node.DiscoveryNode;
import org.opensearch.core.common.io.stream.StreamInput;
import org.opensearch.core.common.io.stream.StreamOutput;

/** One node's statistics, in {@link NodeStats} order. */
public final class StatsNodeResponse extends BaseNodeResponse {

    private final Map<String, Long> stats;

    StatsNodeResponse(DiscoveryNode node, Map<String, Long> stats) {
        super(node);
        this.stats = stats;
    }

    public StatsNodeResponse(StreamInput in) throws IOException {
        super(in);
        stats = in.readOrderedMap(StreamInput::readString, StreamInput::readLong);
    }

    @Override
    public void writeTo(StreamOutput out) throws IOException {
        super.writeTo(out);
        out.writeMap(stats, StreamOutput::writeString, StreamOutput::writeLong);
    }

    public Map<String, Long> stats() {
        return stats;
    }
}
