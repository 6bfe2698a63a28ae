package dev.compress.plugin.model.action;

import java.io.IOException;
import org.opensearch.action.ActionRequest;
import org.opensearch.action.ActionRequestValidationException;
import org.opensearch.action.ValidateActions;
import org.opensearch.core.common.io.stream.StreamInput;
import org.opensearch.core.common.io.stream.StreamOutput;

/** A request about one model; {@code includeWeights} applies to GET only. */
public final class ModelIdRequest extends ActionRequest {

    private final String modelId;
    private final boolean includeWeights;

    public ModelIdRequest(String modelId, boolean includeWeights) {
        this.modelId = modelId;
        this.includeWeights = includeWeights;
    }

    public ModelIdRequest(StreamInput in) throws IOException {
        super(in);
        modelId = in.readString();
        includeWeights = in.readBoolean();
    }

    @Override
    public void writeTo(StreamOutput out) throws IOException {
        super.writeTo(out);
        out.writeString(modelId);
        out.writeBoolean(includeWeights);
    }

    public String modelId() {
        return modelId;
    }

    public boolean includeWeights() {
        return includeWeights;
    }

    @Override
    public ActionRequestValidationException validate() {
        return modelId == null || modelId.isBlank()
                ? ValidateActions.addValidationError("[model_id] is required", null)
                : null;
    }
}
