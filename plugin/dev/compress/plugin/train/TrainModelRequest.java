package dev.compress.plugin.train;

import org.opensearch.action.ActionRequest;
import org.opensearch.action.ActionRequestValidationException;
import org.opensearch.core.common.io.stream.StreamInput;
import org.opensearch.core.common.io.stream.StreamOutput;

import java.io.IOException;
import java.util.Map;

/**
 * A training request: the user's JSON body (kept as sent, so it travels and is stored verbatim),
 * the model id (chosen by the user or generated), and once placed, the node and input dimension.
 */
public final class TrainModelRequest extends ActionRequest {

    private final String modelId;
    private final Map<String, Object> body;
    private final int inputDim;

    public TrainModelRequest(String modelId, Map<String, Object> body, int inputDim) {
        this.modelId = modelId;
        this.body = body;
        this.inputDim = inputDim;
    }

    public TrainModelRequest(StreamInput in) throws IOException {
        super(in);
        modelId = in.readOptionalString();
        body = in.readMap();
        inputDim = in.readVInt();
    }

    @Override
    public void writeTo(StreamOutput out) throws IOException {
        super.writeTo(out);
        out.writeOptionalString(modelId);
        out.writeMap(body);
        out.writeVInt(inputDim);
    }

    public String modelId() {
        return modelId;
    }

    public Map<String, Object> body() {
        return body;
    }

    public int inputDim() {
        return inputDim;
    }

    public TrainSpec spec() {
        return TrainSpec.parse(body);
    }

    @Override
    public ActionRequestValidationException validate() {
        return null;
    }
}
