package dev.compress.plugin.warmup;

import java.io.IOException;
import org.opensearch.core.common.io.stream.StreamInput;
import org.opensearch.core.common.io.stream.StreamOutput;
import org.opensearch.core.common.io.stream.Writeable;

/** What warmup did on one shard copy: the files it read and the searches it ran. */
record WarmedShard(int files, long bytes, int searches) implements Writeable {

    WarmedShard(StreamInput in) throws IOException {
        this(in.readVInt(), in.readVLong(), in.readVInt());
    }

    WarmedShard plus(WarmedShard other) {
        return new WarmedShard(files + other.files, bytes + other.bytes, searches + other.searches);
    }

    WarmedShard withSearches(int searches) {
        return new WarmedShard(files, bytes, searches);
    }

    @Override
    public void writeTo(StreamOutput out) throws IOException {
        out.writeVInt(files);
        out.writeVLong(bytes);
        out.writeVInt(searches);
    }
}
