package dev.compress.codec.floats;

import dev.compress.codec.HnswParameters;
import dev.compress.codec.VectorLimits;
import java.io.IOException;
import org.apache.lucene.codecs.KnnVectorsFormat;
import org.apache.lucene.codecs.KnnVectorsReader;
import org.apache.lucene.codecs.KnnVectorsWriter;
import org.apache.lucene.codecs.hnsw.FlatVectorScorerUtil;
import org.apache.lucene.codecs.hnsw.FlatVectorsFormat;
import org.apache.lucene.codecs.lucene99.Lucene99FlatVectorsFormat;
import org.apache.lucene.codecs.lucene99.Lucene99HnswVectorsFormat;
import org.apache.lucene.codecs.lucene99.Lucene99HnswVectorsReader;
import org.apache.lucene.codecs.lucene99.Lucene99HnswVectorsWriter;
import org.apache.lucene.index.SegmentReadState;
import org.apache.lucene.index.SegmentWriteState;

/**
 * Float32 HNSW for truncated or adapted vectors: Lucene's HNSW writer and reader over Lucene's
 * flat float storage, with dimensions up to {@link VectorLimits#MAX_DIMENSIONS} and configurable
 * {@code m} / {@code beamWidth}. Scores are Lucene's for the field's similarity (dot product:
 * {@code (1 + dot) / 2}).
 *
 * <h2>Files</h2>
 *
 * Exactly those of {@link Lucene99HnswVectorsFormat}, written by Lucene's own writers, with no
 * field added, removed or reordered:
 *
 * <ul>
 *   <li>{@code .vem} (graph metadata) and {@code .vex} (graph), by {@link
 *       Lucene99HnswVectorsWriter};
 *   <li>{@code .vemf} (vector metadata) and {@code .vec} (the float32 vectors), by {@link
 *       Lucene99FlatVectorsFormat}.
 * </ul>
 *
 * Their fields, types and order are listed in the documentation of those two Lucene formats. The
 * format has its own SPI name ({@value #NAME}) only so that the raised dimension limit travels with
 * it.
 */
public final class FloatHnswVectorsFormat extends KnnVectorsFormat {

    public static final String NAME = "CompressFloatHnsw";

    private final HnswParameters hnsw;
    private final FlatVectorsFormat flatFormat =
            new Lucene99FlatVectorsFormat(FlatVectorScorerUtil.getLucene99FlatVectorsScorer());

    /** Lucene's default m and beam width. Used by SPI to read. */
    public FloatHnswVectorsFormat() {
        this(HnswParameters.DEFAULT);
    }

    public FloatHnswVectorsFormat(HnswParameters hnsw) {
        super(NAME);
        this.hnsw = hnsw;
    }

    @Override
    public KnnVectorsWriter fieldsWriter(SegmentWriteState state) throws IOException {
        return new Lucene99HnswVectorsWriter(
                state,
                hnsw.m(),
                hnsw.beamWidth(),
                flatFormat.fieldsWriter(state),
                Lucene99HnswVectorsFormat.DEFAULT_NUM_MERGE_WORKER,
                null);
    }

    @Override
    public KnnVectorsReader fieldsReader(SegmentReadState state) throws IOException {
        return new Lucene99HnswVectorsReader(state, flatFormat.fieldsReader(state));
    }

    @Override
    public int getMaxDimensions(String fieldName) {
        return VectorLimits.MAX_DIMENSIONS;
    }

    @Override
    public String toString() {
        return NAME + "(" + hnsw + ")";
    }
}
