package dev.compress.plugin.mapper;

import org.opensearch.common.xcontent.support.XContentMapValues;
import org.opensearch.core.xcontent.ToXContentFragment;
import org.opensearch.core.xcontent.XContentBuilder;

import java.io.IOException;
import java.util.Map;

/** HNSW graph parameters of a field: {@code m} (neighbours per node) and {@code ef_construction} (build beam). */
public record HnswParameters(int m, int efConstruction) implements ToXContentFragment {

    public static final int DEFAULT_M = 16;
    public static final int DEFAULT_EF_CONSTRUCTION = 100;
    public static final int MAX_M = 512;
    public static final int MAX_EF_CONSTRUCTION = 3200;
    public static final HnswParameters DEFAULT = new HnswParameters(DEFAULT_M, DEFAULT_EF_CONSTRUCTION);

    public HnswParameters {
        if (m < 2 || m > MAX_M) {
            throw new IllegalArgumentException("[hnsw.m] must be in [2, " + MAX_M + "], got [" + m + "]");
        }
        if (efConstruction < 1 || efConstruction > MAX_EF_CONSTRUCTION) {
            throw new IllegalArgumentException("[hnsw.ef_construction] must be in [1, " + MAX_EF_CONSTRUCTION + "], got [" + efConstruction + "]");
        }
    }

    /** Parses the mapping's {@code hnsw} object; unknown keys are an error. */
    static HnswParameters parse(Object node) {
        if (node instanceof Map<?, ?> == false) {
            throw new IllegalArgumentException("[hnsw] must be an object with [m] and [ef_construction], got [" + node + "]");
        }
        Map<?, ?> map = (Map<?, ?>) node;
        for (Object key : map.keySet()) {
            if ("m".equals(key) == false && "ef_construction".equals(key) == false) {
                throw new IllegalArgumentException("[hnsw] has unknown parameter [" + key + "]; expected [m] or [ef_construction]");
            }
        }
        int m = map.containsKey("m") ? XContentMapValues.nodeIntegerValue(map.get("m")) : DEFAULT_M;
        int ef = map.containsKey("ef_construction") ? XContentMapValues.nodeIntegerValue(map.get("ef_construction")) : DEFAULT_EF_CONSTRUCTION;
        return new HnswParameters(m, ef);
    }

    @Override
    public XContentBuilder toXContent(XContentBuilder builder, Params params) throws IOException {
        return builder.startObject().field("m", m).field("ef_construction", efConstruction).endObject();
    }
}
