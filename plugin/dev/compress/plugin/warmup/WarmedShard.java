package dev.compress.plugin.warmup;

import java.io.IOException;
import org.opensearch.core.common.io.stream.StreamInput;
import org.opensearch.core.common.io.stream.StreamOutput;
import org.opensearch.core.common.io.stream.Writeable;

/** What warmup read on one shard copy. */
record WarmedShard(int files, long bytes) implements Writeable {

    WarmedShard(StreamInput in) throws IOException {
        this(in.readVInt(), in.readVLong());
    }

    WarmedShard plus(WarmedShard other) {
        return new WarmedShard(files + other.files, bytes + other.bytes);
    }

    @Override
    public void writeTo(StreamOutput out) throws IOException {
        out.writeVInt(files);
        out.writeVLong(bytes);
    }
}
