package dev.compress.plugin.query.mask;

import java.io.IOException;
import org.opensearch.core.action.ActionResponse;
import org.opensearch.core.common.io.stream.StreamInput;
import org.opensearch.core.common.io.stream.StreamOutput;

/**
 * The mask to apply next: {@code explicit} kept dimensions, or a PRF mask that the query resolves with a first
 * pass (when the model's validation chose that mask for queries that name no size); or, for a model that reads
 * the query's first-pass feedback and a request without it, which feedback to collect and send again.
 */
public final class LearnedMaskResponse extends ActionResponse {

    private final MaskSpec mask;
    private final FeedbackMask.Sets feedbackSets;

    private LearnedMaskResponse(MaskSpec mask, FeedbackMask.Sets feedbackSets) {
        this.mask = mask;
        this.feedbackSets = feedbackSets;
    }

    public static LearnedMaskResponse of(MaskSpec mask) {
        return new LearnedMaskResponse(mask, null);
    }

    public static LearnedMaskResponse collect(FeedbackMask.Sets feedbackSets) {
        return new LearnedMaskResponse(null, feedbackSets);
    }

    public LearnedMaskResponse(StreamInput in) throws IOException {
        super(in);
        mask = in.readOptionalWriteable(MaskSpec::new);
        feedbackSets = in.readBoolean()
                ? new FeedbackMask.Sets(in.readString(), in.readVInt(), in.readVInt(), in.readVInt())
                : null;
    }

    @Override
    public void writeTo(StreamOutput out) throws IOException {
        out.writeOptionalWriteable(mask);
        out.writeBoolean(feedbackSets != null);
        if (feedbackSets != null) {
            out.writeString(feedbackSets.mask());
            out.writeVInt(feedbackSets.depth());
            out.writeVInt(feedbackSets.positives());
            out.writeVInt(feedbackSets.negatives());
        }
    }

    /** The mask; null when {@link #feedbackSets()} is to be collected first. */
    public MaskSpec mask() {
        return mask;
    }

    /** The feedback the model reads, when the request did not carry it; null otherwise. */
    public FeedbackMask.Sets feedbackSets() {
        return feedbackSets;
    }
}
