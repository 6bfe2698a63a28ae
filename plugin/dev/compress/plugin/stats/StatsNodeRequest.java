package dev.compress.plugin.stats;

import java.io.IOException;
import java.util.Set;
import java.util.TreeSet;
import org.opensearch.core.common.io.stream.StreamInput;
import org.opensearch.core.common.io.stream.StreamOutput;
import org.opensearch.transport.TransportRequest;

/** The part of a {@link StatsRequest} sent to each node: which statistics (empty: all). */
public final class StatsNodeRequest extends TransportRequest {

    private final Set<String> stats;

    StatsNodeRequest(Set<String> stats) {
        this.stats = stats;
    }

    public StatsNodeRequest(StreamInput in) throws IOException {
        super(in);
        stats = new TreeSet<>(in.readStringList());
    }

    @Override
    public void writeTo(StreamOutput out) throws IOException {
        super.writeTo(out);
        out.writeStringCollection(stats);
    }

    Set<String> stats() {
        return stats;
    }
}
