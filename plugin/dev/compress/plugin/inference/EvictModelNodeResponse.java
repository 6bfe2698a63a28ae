package dev.compress.plugin.inference;

import java.io.IOException;
import org.opensearch.action.support.nodes.BaseNodeResponse;
import org.opensearch.cluster.node.DiscoveryNode;
import org.opensearch.core.common.io.stream.StreamInput;
import org.opensearch.core.common.io.stream.StreamOutput;

/** One node's answer: whether it had the model cached (or loading). */
public final class EvictModelNodeResponse extends BaseNodeResponse {

    private final boolean evicted;

    EvictModelNodeResponse(DiscoveryNode node, boolean evicted) {
        super(node);
        this.evicted = evicted;
    }

    public EvictModelNodeResponse(StreamInput in) throws IOException {
        super(in);
        evicted = in.readBoolean();
    }

    @Override
    public void writeTo(StreamOutput out) throws IOException {
        super.writeTo(out);
        out.writeBoolean(evicted);
    }

    public boolean evicted() {
        return evicted;
    }
}
