package dev.compress.plugin.info;

import dev.compress.training.engine.EngineStatus;
import java.io.IOException;
import org.opensearch.core.action.ActionResponse;
import org.opensearch.core.common.io.stream.StreamInput;
import org.opensearch.core.common.io.stream.StreamOutput;
import org.opensearch.core.xcontent.ToXContentObject;
import org.opensearch.core.xcontent.XContentBuilder;

/** Plugin version, Lucene version and the training engine's state, as seen by one node. */
public final class InfoResponse extends ActionResponse implements ToXContentObject {

    private final String nodeName;
    private final String pluginVersion;
    private final String luceneVersion;
    private final EngineStatus engine;

    public InfoResponse(String nodeName, String pluginVersion, String luceneVersion, EngineStatus engine) {
        this.nodeName = nodeName;
        this.pluginVersion = pluginVersion;
        this.luceneVersion = luceneVersion;
        this.engine = engine;
    }

    public InfoResponse(StreamInput in) throws IOException {
        super(in);
        nodeName = in.readString();
        pluginVersion = in.readString();
        luceneVersion = in.readString();
        engine = new EngineStatus(
                in.readBoolean(),
                in.readString(),
                in.readOptionalString(),
                in.readVInt(),
                in.readStringList(),
                in.readOptionalString(),
                in.readOptionalString());
    }

    @Override
    public void writeTo(StreamOutput out) throws IOException {
        out.writeString(nodeName);
        out.writeString(pluginVersion);
        out.writeString(luceneVersion);
        out.writeBoolean(engine.loaded());
        out.writeString(engine.engine());
        out.writeOptionalString(engine.version());
        out.writeVInt(engine.gpuCount());
        out.writeStringCollection(engine.devices());
        out.writeOptionalString(engine.cacheDir());
        out.writeOptionalString(engine.error());
    }

    public String pluginVersion() {
        return pluginVersion;
    }

    public String luceneVersion() {
        return luceneVersion;
    }

    public EngineStatus engine() {
        return engine;
    }

    @Override
    public XContentBuilder toXContent(XContentBuilder builder, Params params) throws IOException {
        builder.startObject();
        builder.field("node", nodeName);
        builder.field("plugin_version", pluginVersion);
        builder.field("lucene_version", luceneVersion);
        builder.startObject("training_engine");
        builder.field("loaded", engine.loaded());
        builder.field("name", engine.engine());
        if (engine.version() != null) {
            builder.field("version", engine.version());
        }
        builder.field("gpu_count", engine.gpuCount());
        builder.field("devices", engine.devices());
        if (engine.cacheDir() != null) {
            builder.field("cache_dir", engine.cacheDir());
        }
        if (engine.error() != null) {
            builder.field(engine.loaded() ? "note" : "error", engine.error());
        }
        builder.endObject();
        return builder.endObject();
    }
}
