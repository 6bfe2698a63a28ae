package dev.compress.codec;

/** Limits shared by this project's vector formats. */
public final class VectorLimits {

    /**
     * Highest vector dimension our formats accept. Lucene's own formats stop at 1,024; adapters and
     * modern embedding models go well beyond (the product targets up to 4,096), so we lift it the
     * way the k-NN plugin does, through {@code KnnVectorsFormat#getMaxDimensions}.
     */
    public static final int MAX_DIMENSIONS = 16_000;

    private VectorLimits() {}
}
