package dev.compress.plugin.query.mask;

import java.io.IOException;
import org.opensearch.core.action.ActionResponse;
import org.opensearch.core.common.io.stream.StreamInput;
import org.opensearch.core.common.io.stream.StreamOutput;

/**
 * The mask to apply next: {@code explicit} kept dimensions, or a PRF mask that the query resolves with a first
 * pass (when the model's validation chose that mask for queries that name no size).
 */
public final class LearnedMaskResponse extends ActionResponse {

    private final MaskSpec mask;

    public LearnedMaskResponse(MaskSpec mask) {
        this.mask = mask;
    }

    public LearnedMaskResponse(StreamInput in) throws IOException {
        super(in);
        mask = new MaskSpec(in);
    }

    @Override
    public void writeTo(StreamOutput out) throws IOException {
        mask.writeTo(out);
    }

    public MaskSpec mask() {
        return mask;
    }
}
