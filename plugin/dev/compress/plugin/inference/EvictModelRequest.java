package dev.compress.plugin.inference;

import java.io.IOException;
import org.opensearch.action.support.nodes.BaseNodesRequest;
import org.opensearch.core.common.io.stream.StreamInput;
import org.opensearch.core.common.io.stream.StreamOutput;

/** Evict one model on every node (no node ids = all nodes). */
public final class EvictModelRequest extends BaseNodesRequest<EvictModelRequest> {

    private final String modelId;

    public EvictModelRequest(String modelId) {
        super(new String[0]);
        this.modelId = modelId;
    }

    public EvictModelRequest(StreamInput in) throws IOException {
        super(in);
        modelId = in.readString();
    }

    @Override
    public void writeTo(StreamOutput out) throws IOException {
        super.writeTo(out);
        out.writeString(modelId);
    }

    public String modelId() {
        return modelId;
    }
}
