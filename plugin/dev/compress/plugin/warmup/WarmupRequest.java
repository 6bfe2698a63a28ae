package dev.compress.plugin.warmup;

import java.io.IOException;
import org.opensearch.action.support.broadcast.BroadcastRequest;
import org.opensearch.core.common.io.stream.StreamInput;

/** The indexes to warm up: names, aliases or patterns, as for any index API. */
public final class WarmupRequest extends BroadcastRequest<WarmupRequest> {

    public WarmupRequest(String... indices) {
        super(indices);
    }

    public WarmupRequest(StreamInput in) throws IOException {
        super(in);
    }
}
