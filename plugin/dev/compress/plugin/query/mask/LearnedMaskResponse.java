package dev.compress.plugin.query.mask;

import java.io.IOException;
import org.opensearch.core.action.ActionResponse;
import org.opensearch.core.common.io.stream.StreamInput;
import org.opensearch.core.common.io.stream.StreamOutput;

/** The kept dimensions, ascending. */
public final class LearnedMaskResponse extends ActionResponse {

    private final int[] kept;

    public LearnedMaskResponse(int[] kept) {
        this.kept = kept;
    }

    public LearnedMaskResponse(StreamInput in) throws IOException {
        super(in);
        kept = in.readVIntArray();
    }

    @Override
    public void writeTo(StreamOutput out) throws IOException {
        out.writeVIntArray(kept);
    }

    public int[] kept() {
        return kept;
    }
}
