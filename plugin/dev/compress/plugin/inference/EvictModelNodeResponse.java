package dev.compress.plugin.inference;

import java.io.IOException;
import java.util.Set;
import java.util.TreeSet;
import org.opensearch.action.support.nodes.BaseNodeResponse;
import org.opensearch.cluster.node.DiscoveryNode;
import org.opensearch.core.common.io.stream.StreamInput;
import org.opensearch.core.common.io.stream.StreamOutput;

/** One node's answer: the models it had cached (or loading) and dropped. */
public final class EvictModelNodeResponse extends BaseNodeResponse {

    private final Set<String> evictedIds;

    EvictModelNodeResponse(DiscoveryNode node, Set<String> evictedIds) {
        super(node);
        this.evictedIds = new TreeSet<>(evictedIds);
    }

    public EvictModelNodeResponse(StreamInput in) throws IOException {
        super(in);
        evictedIds = new TreeSet<>(in.readStringList());
    }

    @Override
    public void writeTo(StreamOutput out) throws IOException {
        super.writeTo(out);
        out.writeStringCollection(evictedIds);
    }

    /** Whether the node dropped anything. */
    public boolean evicted() {
        return evictedIds.isEmpty() == false;
    }

    /** The ids of the models the node dropped, sorted. */
    public Set<String> evictedIds() {
        return evictedIds;
    }
}
