package dev.compress.plugin.model.action;

import dev.compress.plugin.model.ModelFields;
import java.io.IOException;
import java.util.List;
import org.opensearch.core.action.ActionResponse;
import org.opensearch.core.common.io.stream.StreamInput;
import org.opensearch.core.common.io.stream.StreamOutput;
import org.opensearch.core.common.io.stream.Writeable;
import org.opensearch.core.xcontent.ToXContentObject;
import org.opensearch.core.xcontent.XContentBuilder;

/**
 * {@code DELETE _plugins/compress/models/{id}}: {@code {"model_id": .., "result": "deleted"}}, and
 * {@code eviction_failures} when a node did not confirm that it dropped its cached copy: the model
 * is gone from the index either way, but such a node may still serve its copy to {@code model_id}
 * queries until it restarts or evicts it, so the answer names it.
 */
public final class DeleteModelResponse extends ActionResponse implements ToXContentObject {

    /**
     * A node that did not confirm the eviction; {@code nodeId} is {@code _all} when the broadcast
     * itself failed.
     */
    public record EvictionFailure(String nodeId, String reason) implements Writeable {

        public EvictionFailure(StreamInput in) throws IOException {
            this(in.readString(), in.readString());
        }

        @Override
        public void writeTo(StreamOutput out) throws IOException {
            out.writeString(nodeId);
            out.writeString(reason);
        }
    }

    private final String modelId;
    private final List<EvictionFailure> evictionFailures;

    public DeleteModelResponse(String modelId, List<EvictionFailure> evictionFailures) {
        this.modelId = modelId;
        this.evictionFailures = List.copyOf(evictionFailures);
    }

    public DeleteModelResponse(StreamInput in) throws IOException {
        super(in);
        modelId = in.readString();
        evictionFailures = in.readList(EvictionFailure::new);
    }

    @Override
    public void writeTo(StreamOutput out) throws IOException {
        out.writeString(modelId);
        out.writeList(evictionFailures);
    }

    public String modelId() {
        return modelId;
    }

    @Override
    public XContentBuilder toXContent(XContentBuilder builder, Params params) throws IOException {
        builder.startObject();
        builder.field(ModelFields.MODEL_ID, modelId);
        builder.field("result", "deleted");
        if (evictionFailures.isEmpty() == false) {
            builder.startArray("eviction_failures");
            for (EvictionFailure failure : evictionFailures) {
                builder.startObject()
                        .field("node_id", failure.nodeId())
                        .field("reason", failure.reason())
                        .endObject();
            }
            builder.endArray();
        }
        return builder.endObject();
    }
}
