package dev.compress.plugin.query.mask;

import java.util.Arrays;
import java.util.Locale;

/** The kinds of {@code mask} a {@code compressed_knn} query accepts. */
public enum MaskType {
    /**
     * Top dimensions by a mask model's scores for the query, and for its first pass's top documents when the model
     * reads them (the predictor of Learning to Select).
     */
    LEARNED,
    /** Top dimensions by |q_j|. */
    NORM,
    /** The first dimensions (a Matryoshka-style prefix). */
    CUTOFF,
    /** Top dimensions by q_j times the mean of the first-pass top documents' d_j. */
    DIME_PRF,
    /** Top dimensions by q_j times (mean of the first-pass top documents minus mean of its tail). */
    ECLIPSE_PRF,
    /** The kept dimensions listed; what the others resolve to in the rewrite. */
    EXPLICIT;

    public String jsonName() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static MaskType fromJson(String value) {
        for (MaskType type : values()) {
            if (type.jsonName().equals(value)) {
                return type;
            }
        }
        throw new IllegalArgumentException("[mask.type] must be one of "
                + Arrays.stream(values()).map(MaskType::jsonName).toList() + ", got [" + value + "]");
    }

    boolean isPseudoRelevanceFeedback() {
        return this == DIME_PRF || this == ECLIPSE_PRF;
    }
}
