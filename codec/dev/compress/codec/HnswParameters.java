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

    /** The narrowest beam Lucene's graph builder works with. */
    public static final int MIN_BEAM_WIDTH = 2;

    public HnswParameters {
        if (m <= 0 || m > Lucene99HnswVectorsFormat.MAXIMUM_MAX_CONN) {
            throw new IllegalArgumentException(
                    "m must be in [1, " + Lucene99HnswVectorsFormat.MAXIMUM_MAX_CONN + "], got " + m);
        }
        // Lucene's graph builder keeps beamWidth / 2 candidates on the bottom layer, none at a beam of 1:
        // it then fails every insertion and merge once the graph grows a second layer
        if (beamWidth < MIN_BEAM_WIDTH || beamWidth > Lucene99HnswVectorsFormat.MAXIMUM_BEAM_WIDTH) {
            throw new IllegalArgumentException("ef_construction must be in [" + MIN_BEAM_WIDTH + ", "
                    + Lucene99HnswVectorsFormat.MAXIMUM_BEAM_WIDTH
                    + "], got "
                    + beamWidth);
        }
    }
}
