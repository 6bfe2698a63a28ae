package dev.compress.plugin.query.mask;

import java.io.IOException;
import org.opensearch.action.ActionRequest;
import org.opensearch.action.ActionRequestValidationException;
import org.opensearch.core.common.io.stream.StreamInput;
import org.opensearch.core.common.io.stream.StreamOutput;

/**
 * A query vector (already adapted when the query has a {@code model_id}), its {@code learned} mask parameter, and,
 * once the model asked for them ({@link LearnedMaskResponse#feedbackDocs()}), the unit vectors of the query's top
 * first-pass documents.
 */
public final class LearnedMaskRequest extends ActionRequest {

    private final MaskSpec mask;
    private final float[] vector;
    private final float[][] feedback;

    /** @param feedback null until the model asks for it; empty when the first pass found nothing */
    public LearnedMaskRequest(MaskSpec mask, float[] vector, float[][] feedback) {
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
        feedback = in.readOptionalArray(StreamInput::readFloatArray, float[][]::new);
    }

    @Override
    public void writeTo(StreamOutput out) throws IOException {
        super.writeTo(out);
        mask.writeTo(out);
        out.writeFloatArray(vector);
        out.writeOptionalArray(StreamOutput::writeFloatArray, feedback);
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

    /** The unit vectors of the query's top first-pass documents, in rank order; null when not collected. */
    public float[][] feedback() {
        return feedback;
    }
}
