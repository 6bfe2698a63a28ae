package dev.compress.plugin.warmup;

import static org.opensearch.action.ValidateActions.addValidationError;

import java.io.IOException;
import org.opensearch.action.ActionRequestValidationException;
import org.opensearch.action.support.broadcast.BroadcastRequest;
import org.opensearch.core.common.io.stream.StreamInput;
import org.opensearch.core.common.io.stream.StreamOutput;

/**
 * The indexes to warm up (names, aliases or patterns, as for any index API) and how many searches
 * each node runs on its shard copies to warm the JVM ({@link SearchWarmer}).
 */
public final class WarmupRequest extends BroadcastRequest<WarmupRequest> {

    /** Searches per node unless the request says otherwise: enough for the JIT to compile the search code. */
    public static final int DEFAULT_SEARCHES = 1_000;

    /**
     * The most searches a request may ask of a node: they run on the node's {@code warmer} pool, which
     * refreshes also use, and cannot be cancelled.
     */
    public static final int MAX_SEARCHES = 10_000;

    private int searches = DEFAULT_SEARCHES;

    public WarmupRequest(String... indices) {
        super(indices);
    }

    public WarmupRequest(StreamInput in) throws IOException {
        super(in);
        searches(in.readVInt());
    }

    @Override
    public void writeTo(StreamOutput out) throws IOException {
        super.writeTo(out);
        out.writeVInt(searches);
    }

    /** Searches each node runs over its shard copies of the indexes; 0 reads the files only. */
    public WarmupRequest searches(int searches) {
        this.searches = searches;
        return this;
    }

    public int searches() {
        return searches;
    }

    @Override
    public ActionRequestValidationException validate() {
        ActionRequestValidationException errors = super.validate();
        if (searches < 0 || searches > MAX_SEARCHES) {
            errors = addValidationError(
                    "[searches] must be between 0 and " + MAX_SEARCHES + ", got [" + searches + "]", errors);
        }
        return errors;
    }
}
