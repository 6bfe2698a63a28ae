package dev.compress.plugin.mapper;

import dev.compress.codec.VectorLimits;

/**
 * Everything the codec needs to know about one {@code compressed_vector} field.
 *
 * @param rescoreVectors binary only: keep the float32 vectors on disk for exact rescoring
 */
public record VectorFieldConfig(
        int dimension,
        VectorEncoding encoding,
        boolean rescoreVectors,
        VectorSimilarity similarity,
        HnswMappingParameters hnsw) {

    /** Upper bound of {@code dimension}; the k-NN plugin allows 16,000 and so do we. */
    public static final int MAX_DIMENSION = VectorLimits.MAX_DIMENSIONS;

    public boolean keepsFloats() {
        return encoding == VectorEncoding.FLOAT || rescoreVectors;
    }
}
