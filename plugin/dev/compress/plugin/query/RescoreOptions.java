package dev.compress.plugin.query;

import java.io.IOException;
import org.opensearch.core.common.ParsingException;
import org.opensearch.core.common.io.stream.StreamInput;
import org.opensearch.core.common.io.stream.StreamOutput;
import org.opensearch.core.common.io.stream.Writeable;
import org.opensearch.core.xcontent.XContentBuilder;
import org.opensearch.core.xcontent.XContentParser;

/**
 * {@code rescore} of a {@code compressed_knn} query: {@code false}, {@code true}, or
 * {@code {"oversample_factor": f}}. On binary fields each segment's graph walk collects {@code k * f}
 * candidates (or {@code num_candidates}, if more), ranked by the codes' estimate with the query
 * quantised to 4 bits, and rescores them with the float query.
 */
public record RescoreOptions(boolean enabled, float oversampleFactor) implements Writeable {

    public static final float DEFAULT_OVERSAMPLE = 3.0f;
    public static final float MAX_OVERSAMPLE = 100f;
    public static final RescoreOptions DEFAULT = new RescoreOptions(true, DEFAULT_OVERSAMPLE);
    public static final RescoreOptions DISABLED = new RescoreOptions(false, 1f);

    public RescoreOptions {
        if (oversampleFactor < 1f || oversampleFactor > MAX_OVERSAMPLE || Float.isNaN(oversampleFactor)) {
            throw new IllegalArgumentException("[rescore.oversample_factor] must be in [1, " + MAX_OVERSAMPLE
                    + "], got [" + oversampleFactor + "]");
        }
    }

    public RescoreOptions(StreamInput in) throws IOException {
        this(in.readBoolean(), in.readFloat());
    }

    @Override
    public void writeTo(StreamOutput out) throws IOException {
        out.writeBoolean(enabled);
        out.writeFloat(oversampleFactor);
    }

    static RescoreOptions parse(XContentParser parser) throws IOException {
        XContentParser.Token token = parser.currentToken();
        if (token == XContentParser.Token.VALUE_BOOLEAN) {
            return parser.booleanValue() ? DEFAULT : DISABLED;
        }
        if (token != XContentParser.Token.START_OBJECT) {
            throw new ParsingException(
                    parser.getTokenLocation(),
                    "[compressed_knn] [rescore] must be true, false or {\"oversample_factor\": f}, got "
                            + JsonParams.sent(parser));
        }
        float factor = DEFAULT_OVERSAMPLE;
        while ((token = parser.nextToken()) != XContentParser.Token.END_OBJECT) {
            String name = parser.currentName();
            parser.nextToken();
            if ("oversample_factor".equals(name) == false) {
                throw new ParsingException(parser.getTokenLocation(), "[rescore] has unknown parameter [" + name + "]");
            }
            factor = JsonParams.number(parser, "rescore.oversample_factor").floatValue();
        }
        return new RescoreOptions(true, factor);
    }

    void toXContent(XContentBuilder builder) throws IOException {
        if (enabled) {
            builder.startObject("rescore")
                    .field("oversample_factor", oversampleFactor)
                    .endObject();
        } else {
            builder.field("rescore", false);
        }
    }
}
