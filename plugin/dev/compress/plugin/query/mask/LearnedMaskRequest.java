package dev.compress.plugin.query.mask;

import java.io.IOException;
import org.opensearch.action.ActionRequest;
import org.opensearch.action.ActionRequestValidationException;
import org.opensearch.core.common.io.stream.StreamInput;
import org.opensearch.core.common.io.stream.StreamOutput;

/**
 * A query vector (already adapted when the query has a {@code model_id}), its {@code learned} mask parameter, and,
 * once the model asked for it ({@link LearnedMaskResponse#feedbackSets()}), the query's first-pass feedback.
 */
public final class LearnedMaskRequest extends ActionRequest {

    private final MaskSpec mask;
    private final float[] vector;
    private final Feedback feedback;

    /** @param feedback null until the model asks for it */
    public LearnedMaskRequest(MaskSpec mask, float[] vector, Feedback feedback) {
        if (mask.type() != MaskType.LEARNED) {
            throw new IllegalArgumentException("not a learned mask: " + mask.type());
        }
        this.mask = mask;
        this.vector = vector;
        this.feedback = feedback;
    }

    public LearnedMaskRequest(StreamInput in) throws IOException {
        super(in);
        mask = new MaskSpec(in);
        vector = in.readFloatArray();
        feedback = in.readOptionalWriteable(Feedback::new);
    }

    @Override
    public void writeTo(StreamOutput out) throws IOException {
        super.writeTo(out);
        mask.writeTo(out);
        out.writeFloatArray(vector);
        out.writeOptionalWriteable(feedback);
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

    /** The query's first-pass feedback; null when not collected. */
    public Feedback feedback() {
        return feedback;
    }
}
