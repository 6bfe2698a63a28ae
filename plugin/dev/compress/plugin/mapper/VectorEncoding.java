package dev.compress.plugin.mapper;

import java.util.Arrays;
import java.util.Locale;

/** How a {@code compressed_vector} field stores its vectors. */
public enum VectorEncoding {
    /** float32 per dimension, for truncated or adapted vectors; searched with float HNSW. */
    FLOAT,
    /** one sign bit per dimension; the graph is built and walked on Hamming distance. */
    BINARY;

    public String jsonName() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static VectorEncoding fromJson(String field, String value) {
        for (VectorEncoding e : values()) {
            if (e.jsonName().equals(value)) {
                return e;
            }
        }
        throw new IllegalArgumentException("[" + field + "] must be one of "
                + Arrays.stream(values()).map(VectorEncoding::jsonName).toList() + ", got [" + value + "]");
    }
}
