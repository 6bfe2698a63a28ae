package dev.compress.plugin.warmup;

import java.io.IOException;
import java.util.List;
import org.opensearch.action.support.broadcast.BroadcastResponse;
import org.opensearch.core.action.support.DefaultShardOperationFailedException;
import org.opensearch.core.common.io.stream.StreamInput;
import org.opensearch.core.common.io.stream.StreamOutput;
import org.opensearch.core.xcontent.XContentBuilder;

/**
 * k-NN's warmup answer, {@code _shards} with {@code total}, {@code successful} and {@code failed}
 * shard copies, and what was done over all of them: {@code "warmed": {"files": .., "bytes": .., "searches":
 * ..}}, the files and bytes read and the searches run.
 */
public final class WarmupResponse extends BroadcastResponse {

    private final long files;
    private final long bytes;
    private final long searches;

    WarmupResponse(
            int totalShards,
            int successfulShards,
            int failedShards,
            List<DefaultShardOperationFailedException> shardFailures,
            long files,
            long bytes,
            long searches) {
        super(totalShards, successfulShards, failedShards, shardFailures);
        this.files = files;
        this.bytes = bytes;
        this.searches = searches;
    }

    public WarmupResponse(StreamInput in) throws IOException {
        super(in);
        files = in.readVLong();
        bytes = in.readVLong();
        searches = in.readVLong();
    }

    @Override
    public void writeTo(StreamOutput out) throws IOException {
        super.writeTo(out);
        out.writeVLong(files);
        out.writeVLong(bytes);
        out.writeVLong(searches);
    }

    public long files() {
        return files;
    }

    public long bytes() {
        return bytes;
    }

    public long searches() {
        return searches;
    }

    @Override
    protected void addCustomXContentFields(XContentBuilder builder, Params params) throws IOException {
        builder.startObject("warmed");
        builder.field("files", files);
        builder.field("bytes", bytes);
        builder.field("searches", searches);
        builder.endObject();
    }
}
