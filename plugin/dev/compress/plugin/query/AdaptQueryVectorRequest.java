package dev.compress.plugin.query;

import java.io.IOException;
import org.opensearch.action.ActionRequest;
import org.opensearch.action.ActionRequestValidationException;
import org.opensearch.core.common.io.stream.StreamInput;
import org.opensearch.core.common.io.stream.StreamOutput;

/** A raw vector, the model to pass it through, and optionally which of the model's output dimensions to keep. */
public final class AdaptQueryVectorRequest extends ActionRequest {

    private final String modelId;
    private final Integer dimension;
    private final float[] vector;

    public AdaptQueryVectorRequest(String modelId, Integer dimension, float[] vector) {
        this.modelId = modelId;
        this.dimension = dimension;
        this.vector = vector;
    }

    public AdaptQueryVectorRequest(StreamInput in) throws IOException {
        super(in);
        modelId = in.readString();
        dimension = in.readOptionalVInt();
        vector = in.readFloatArray();
    }

    @Override
    public void writeTo(StreamOutput out) throws IOException {
        super.writeTo(out);
        out.writeString(modelId);
        out.writeOptionalVInt(dimension);
        out.writeFloatArray(vector);
    }

    @Override
    public ActionRequestValidationException validate() {
        return null;
    }

    public String modelId() {
        return modelId;
    }

    public Integer dimension() {
        return dimension;
    }

    public float[] vector() {
        return vector;
    }
}
