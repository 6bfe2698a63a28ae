package dev.compress.plugin.query.mask;

import java.io.IOException;
import org.opensearch.action.ActionRequest;
import org.opensearch.action.ActionRequestValidationException;
import org.opensearch.core.common.io.stream.StreamInput;
import org.opensearch.core.common.io.stream.StreamOutput;

/** A query vector (already adapted when the query has a {@code model_id}) and its {@code learned} mask parameter. */
public final class LearnedMaskRequest extends ActionRequest {

    private final MaskSpec mask;
    private final float[] vector;

    public LearnedMaskRequest(MaskSpec mask, float[] vector) {
        if (mask.type() != MaskType.LEARNED) {
            throw new IllegalArgumentException("not a learned mask: " + mask.type());
        }
        this.mask = mask;
        this.vector = vector;
    }

    public LearnedMaskRequest(StreamInput in) throws IOException {
        super(in);
        mask = new MaskSpec(in);
        vector = in.readFloatArray();
    }

    @Override
    public void writeTo(StreamOutput out) throws IOException {
        super.writeTo(out);
        mask.writeTo(out);
        out.writeFloatArray(vector);
    }

    @Override
    public ActionRequestValidationException validate() {
        return null;
    }

    public MaskSpec mask() {
        return mask;
    }

    public float[] vector() {
        return vector;
    }
}
