package dev.compress.plugin.mapper;

import java.util.Arrays;
import java.util.Locale;
import org.apache.lucene.index.VectorSimilarityFunction;

/**
 * The similarity a {@code compressed_vector} field ranks by. Scores follow Lucene's mapping to a
 * non-negative, monotonic score: {@code (1 + similarity) / 2} for both.
 */
public enum VectorSimilarity {
    /** Dot product of unit vectors; the mapper rejects vectors that are not unit length. */
    DOT_PRODUCT(VectorSimilarityFunction.DOT_PRODUCT),
    /** Cosine; any non-zero vector. */
    COSINE(VectorSimilarityFunction.COSINE);

    private final VectorSimilarityFunction lucene;

    VectorSimilarity(VectorSimilarityFunction lucene) {
        this.lucene = lucene;
    }

    public VectorSimilarityFunction lucene() {
        return lucene;
    }

    public String jsonName() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static VectorSimilarity fromJson(String field, String value) {
        for (VectorSimilarity s : values()) {
            if (s.jsonName().equals(value)) {
                return s;
            }
        }
        throw new IllegalArgumentException("[" + field + "] must be one of "
                + Arrays.stream(values()).map(VectorSimilarity::jsonName).toList() + ", got [" + value + "]");
    }
}
