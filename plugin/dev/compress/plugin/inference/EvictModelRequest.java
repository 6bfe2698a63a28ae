package dev.compress.plugin.inference;

import java.io.IOException;
import java.util.Objects;
import org.opensearch.action.support.nodes.BaseNodesRequest;
import org.opensearch.core.common.io.stream.StreamInput;
import org.opensearch.core.common.io.stream.StreamOutput;

/** Evict one model, or every model, on every node (no node ids = all nodes). */
public final class EvictModelRequest extends BaseNodesRequest<EvictModelRequest> {

    /** Null: every model. */
    private final String modelId;

    public EvictModelRequest(String modelId) {
        super(new String[0]);
        this.modelId = Objects.requireNonNull(modelId);
    }

    private EvictModelRequest() {
        super(new String[0]);
        this.modelId = null;
    }

    /** Empties every node's model cache. */
    public static EvictModelRequest allModels() {
        return new EvictModelRequest();
    }

    public EvictModelRequest(StreamInput in) throws IOException {
        super(in);
        modelId = in.readOptionalString();
    }

    @Override
    public void writeTo(StreamOutput out) throws IOException {
        super.writeTo(out);
        out.writeOptionalString(modelId);
    }

    /** The model to evict; null for every model. */
    public String modelId() {
        return modelId;
    }
}
