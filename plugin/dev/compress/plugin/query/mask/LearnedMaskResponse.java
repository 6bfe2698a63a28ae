package dev.compress.plugin.query.mask;

import java.io.IOException;
import org.opensearch.core.action.ActionResponse;
import org.opensearch.core.common.io.stream.StreamInput;
import org.opensearch.core.common.io.stream.StreamOutput;

/**
 * The mask to apply next: {@code explicit} kept dimensions, or a PRF mask that the query resolves with a first
 * pass (when the model's validation chose that mask for queries that name no size); or, for a model that reads
 * the query's first-pass feedback and a request without it, how many top documents of the first pass to collect
 * and send again.
 */
public final class LearnedMaskResponse extends ActionResponse {

    private final MaskSpec mask;
    private final int feedbackDocs;

    private LearnedMaskResponse(MaskSpec mask, int feedbackDocs) {
        this.mask = mask;
        this.feedbackDocs = feedbackDocs;
    }

    public static LearnedMaskResponse of(MaskSpec mask) {
        return new LearnedMaskResponse(mask, 0);
    }

    /** @param feedbackDocs at least 1 */
    public static LearnedMaskResponse collect(int feedbackDocs) {
        if (feedbackDocs < 1) {
            throw new IllegalArgumentException("feedbackDocs must be at least 1, got " + feedbackDocs);
        }
        return new LearnedMaskResponse(null, feedbackDocs);
    }

    public LearnedMaskResponse(StreamInput in) throws IOException {
        super(in);
        mask = in.readOptionalWriteable(MaskSpec::new);
        feedbackDocs = in.readVInt();
    }

    @Override
    public void writeTo(StreamOutput out) throws IOException {
        out.writeOptionalWriteable(mask);
        out.writeVInt(feedbackDocs);
    }

    /** The mask; null when {@link #feedbackDocs()} are to be collected first. */
    public MaskSpec mask() {
        return mask;
    }

    /** How many top first-pass documents the model reads, when the request did not carry them; 0 otherwise. */
    public int feedbackDocs() {
        return feedbackDocs;
    }
}
