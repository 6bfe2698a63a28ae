package dev.compress.plugin.train;

import dev.compress.plugin.model.ModelFields;
import dev.compress.plugin.model.ModelState;
import java.io.IOException;
import org.opensearch.core.action.ActionResponse;
import org.opensearch.core.common.io.stream.StreamInput;
import org.opensearch.core.common.io.stream.StreamOutput;
import org.opensearch.core.xcontent.ToXContentObject;
import org.opensearch.core.xcontent.XContentBuilder;

/**
 * {@code POST _plugins/compress/_train}: {@code {"model_id": .., "state": "training", "node": ..}},
 * sent once the job's node has written the model document and started the job; the model id is
 * the one generated when the request named none. The job's outcome is the model's to tell
 * ({@code GET _plugins/compress/models/{id}}).
 */
public final class TrainModelResponse extends ActionResponse implements ToXContentObject {

    private final String modelId;
    private final String nodeName;

    public TrainModelResponse(String modelId, String nodeName) {
        this.modelId = modelId;
        this.nodeName = nodeName;
    }

    public TrainModelResponse(StreamInput in) throws IOException {
        super(in);
        modelId = in.readString();
        nodeName = in.readString();
    }

    @Override
    public void writeTo(StreamOutput out) throws IOException {
        out.writeString(modelId);
        out.writeString(nodeName);
    }

    public String modelId() {
        return modelId;
    }

    /** The name of the node that runs the job. */
    @Override
    public XContentBuilder toXContent(XContentBuilder builder, Params params) throws IOException {
        return builder.startObject()
                .field(ModelFields.MODEL_ID, modelId)
                .field(ModelFields.STATE, ModelState.TRAINING.jsonName())
                .field("node", nodeName)
                .endObject();
    }
}
