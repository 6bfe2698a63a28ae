package dev.compress.plugin.query;

import java.io.IOException;
import org.opensearch.core.action.ActionResponse;
import org.opensearch.core.common.io.stream.StreamInput;
import org.opensearch.core.common.io.stream.StreamOutput;

/** The adapted query vector. */
public final class AdaptQueryVectorResponse extends ActionResponse {

    private final float[] vector;

    public AdaptQueryVectorResponse(float[] vector) {
        this.vector = vector;
    }

    public AdaptQueryVectorResponse(StreamInput in) throws IOException {
        super(in);
        vector = in.readFloatArray();
    }

    @Override
    public void writeTo(StreamOutput out) throws IOException {
        out.writeFloatArray(vector);
    }

    public float[] vector() {
        return vector;
    }
}
