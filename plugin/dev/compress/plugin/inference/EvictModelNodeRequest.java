package dev.compress.plugin.inference;

import java.io.IOException;
import org.opensearch.core.common.io.stream.StreamInput;
import org.opensearch.core.common.io.stream.StreamOutput;
import org.opensearch.transport.TransportRequest;

/** The part of an {@link EvictModelRequest} sent to each node. */
public final class EvictModelNodeRequest extends TransportRequest {

    private final String modelId;

    EvictModelNodeRequest(String modelId) {
        this.modelId = modelId;
    }

    public EvictModelNodeRequest(StreamInput in) throws IOException {
        super(in);
        modelId = in.readOptionalString();
    }

    @Override
    public void writeTo(StreamOutput out) throws IOException {
        super.writeTo(out);
        out.writeOptionalString(modelId);
    }

    /** Null: every model. */
    String modelId() {
        return modelId;
    }
}
