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
 * shard copies, and what was read over all of them: {@code "warmed": {"files": .., "bytes": ..}}.
 */
public final class WarmupResponse extends BroadcastResponse {

    private final long files;
    private final long bytes;

    WarmupResponse(
            int totalShards,
            int successfulShards,
            int failedShards,
            List<DefaultShardOperationFailedException> shardFailures,
            long files,
            long bytes) {
        super(totalShards, successfulShards, failedShards, shardFailures);
        this.files = files;
        this.bytes = bytes;
    }

    public WarmupResponse(StreamInput in) throws IOException {
        super(in);
        files = in.readVLong();
        bytes = in.readVLong();
    }

    @Override
    public void writeTo(StreamOutput out) throws IOException {
        super.writeTo(out);
        out.writeVLong(files);
        out.writeVLong(bytes);
    }

    public long files() {
        return files;
    }

    public long bytes() {
        return bytes;
    }

    @Override
    protected void addCustomXContentFields(XContentBuilder builder, Params params) throws IOException {
        builder.startObject("warmed");
        builder.field("files", files);
        builder.field("bytes", bytes);
        builder.endObject();
    }
}
