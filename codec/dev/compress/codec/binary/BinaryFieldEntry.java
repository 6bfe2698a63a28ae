package dev.compress.codec.binary;

import org.apache.lucene.codecs.lucene95.OrdToDocDISIReaderConfiguration;

/**
 * What the metadata file says about one binary field of a segment.
 *
 * @param dims float dimension
 * @param storeFloats whether the float32 vectors were kept
 * @param centred whether codes were taken against the segment mean
 * @param codesOffset start of the codes in the data file
 * @param codesLength bytes of codes and corrections ({@code size * recordBytes(dims)})
 * @param size number of vectors
 * @param centroid centre of the codes (zeros when not centred)
 * @param scale per-dimension mean absolute deviation from the centre
 * @param docs ordinal-to-document mapping
 * @param floats where the kept float32 vectors are in {@code .vbf}; null when none are kept, or when
 *     a segment of version 1 kept them in the raw flat format's {@code .vec}
 */
record BinaryFieldEntry(
        int dims,
        boolean storeFloats,
        boolean centred,
        long codesOffset,
        long codesLength,
        int size,
        float[] centroid,
        float[] scale,
        OrdToDocDISIReaderConfiguration docs,
        PackedFloatsEntry floats) {}
