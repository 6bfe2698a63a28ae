package dev.compress.plugin.stats;

import java.io.IOException;
import java.util.Set;
import java.util.TreeSet;
import org.opensearch.action.support.nodes.BaseNodesRequest;
import org.opensearch.core.common.io.stream.StreamInput;
import org.opensearch.core.common.io.stream.StreamOutput;

/** The nodes to ask (none: all) and the statistics to return (none: all). */
public final class StatsRequest extends BaseNodesRequest<StatsRequest> {

    private final Set<String> stats;

    public StatsRequest(String[] nodeIds, Set<String> stats) {
        super(nodeIds);
        this.stats = new TreeSet<>(stats);
    }

    public StatsRequest(StreamInput in) throws IOException {
        super(in);
        stats = new TreeSet<>(in.readStringList());
    }

    @Override
    public void writeTo(StreamOutput out) throws IOException {
        super.writeTo(out);
        out.writeStringCollection(stats);
    }

    /** The statistics asked for; empty for all. */
    public Set<String> stats() {
        return stats;
    }
}
