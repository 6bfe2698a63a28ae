package dev.compress.codec;

import org.apache.lucene.codecs.lucene99.Lucene99HnswVectorsFormat;

/**
 * Graph construction parameters, validated against Lucene's limits.
 *
 * @param m maximum neighbours per node ({@code m} in the mapping)
 * @param beamWidth candidates considered while inserting a node ({@code ef_construction})
 */
public record HnswParameters(int m, int beamWidth) {

    public static final HnswParameters DEFAULT = new HnswParameters(
            Lucene99HnswVectorsFormat.DEFAULT_MAX_CONN, Lucene99HnswVectorsFormat.DEFAULT_BEAM_WIDTH);

    public HnswParameters {
        if (m <= 0 || m > Lucene99HnswVectorsFormat.MAXIMUM_MAX_CONN) {
            throw new IllegalArgumentException(
                    "m must be in [1, " + Lucene99HnswVectorsFormat.MAXIMUM_MAX_CONN + "], got " + m);
        }
        if (beamWidth <= 0 || beamWidth > Lucene99HnswVectorsFormat.MAXIMUM_BEAM_WIDTH) {
            throw new IllegalArgumentException("ef_construction must be in [1, "
                    + Lucene99HnswVectorsFormat.MAXIMUM_BEAM_WIDTH
                    + "], got "
                    + beamWidth);
        }
    }
}
