package dev.compress.plugin.mapper;

import dev.compress.codec.HnswParameters;
import java.io.IOException;
import java.util.Map;
import org.opensearch.core.xcontent.ToXContentFragment;
import org.opensearch.core.xcontent.XContentBuilder;

/**
 * A field's {@code hnsw} mapping parameter, {@code {"m": .., "ef_construction": ..}}: its JSON
 * form, its defaults and the bounds the mapping accepts, named as the user writes them. The
 * codec's {@link HnswParameters} is the same graph in Lucene's terms ({@link #toCodec}); the
 * mapping keeps its own type so that a mapping error names {@code [hnsw.m]}, and the codec stays
 * free of OpenSearch.
 *
 * @param m              neighbours per graph node
 * @param efConstruction candidates considered while inserting a node (the codec's beam width)
 */
public record HnswMappingParameters(int m, int efConstruction) implements ToXContentFragment {

    public static final String M = "m";
    public static final String EF_CONSTRUCTION = "ef_construction";
    public static final int DEFAULT_M = 16;
    public static final int DEFAULT_EF_CONSTRUCTION = 100;
    public static final int MAX_M = 512;
    public static final int MAX_EF_CONSTRUCTION = 3200;
    public static final HnswMappingParameters DEFAULT = new HnswMappingParameters(DEFAULT_M, DEFAULT_EF_CONSTRUCTION);

    public HnswMappingParameters {
        if (m < 2 || m > MAX_M) {
            throw new IllegalArgumentException("[hnsw.m] must be in [2, " + MAX_M + "], got [" + m + "]");
        }
        if (efConstruction < HnswParameters.MIN_BEAM_WIDTH || efConstruction > MAX_EF_CONSTRUCTION) {
            throw new IllegalArgumentException("[hnsw.ef_construction] must be in [" + HnswParameters.MIN_BEAM_WIDTH
                    + ", " + MAX_EF_CONSTRUCTION + "], got [" + efConstruction + "]");
        }
    }

    /** Parses the mapping's {@code hnsw} object; unknown keys are an error. */
    static HnswMappingParameters parse(Object node) {
        if (node instanceof Map<?, ?> == false) {
            throw new IllegalArgumentException(
                    "[hnsw] must be an object with [m] and [ef_construction], got [" + node + "]");
        }
        Map<?, ?> map = (Map<?, ?>) node;
        for (Object key : map.keySet()) {
            if (M.equals(key) == false && EF_CONSTRUCTION.equals(key) == false) {
                throw new IllegalArgumentException(
                        "[hnsw] has unknown parameter [" + key + "]; expected [m] or [ef_construction]");
            }
        }
        int m = map.containsKey(M) ? CompressedVectorFieldMapper.integer("hnsw." + M, map.get(M)) : DEFAULT_M;
        int ef = map.containsKey(EF_CONSTRUCTION)
                ? CompressedVectorFieldMapper.integer("hnsw." + EF_CONSTRUCTION, map.get(EF_CONSTRUCTION))
                : DEFAULT_EF_CONSTRUCTION;
        return new HnswMappingParameters(m, ef);
    }

    /** The codec's parameters for this graph; the mapping's bounds lie within the codec's. */
    public HnswParameters toCodec() {
        return new HnswParameters(m, efConstruction);
    }

    @Override
    public XContentBuilder toXContent(XContentBuilder builder, Params params) throws IOException {
        return builder.startObject()
                .field(M, m)
                .field(EF_CONSTRUCTION, efConstruction)
                .endObject();
    }

    /** The JSON form, as a mapping conflict names the value. */
    @Override
    public String toString() {
        return "{\"" + M + "\":" + m + ",\"" + EF_CONSTRUCTION + "\":" + efConstruction + "}";
    }
}
