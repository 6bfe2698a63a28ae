package dev.compress.codec.binary;

import dev.compress.codec.HnswParameters;
import dev.compress.codec.VectorLimits;
import java.io.IOException;
import org.apache.lucene.codecs.KnnVectorsFormat;
import org.apache.lucene.codecs.KnnVectorsReader;
import org.apache.lucene.codecs.KnnVectorsWriter;
import org.apache.lucene.codecs.hnsw.FlatVectorsReader;
import org.apache.lucene.codecs.lucene99.Lucene99HnswVectorsFormat;
import org.apache.lucene.codecs.lucene99.Lucene99HnswVectorsReader;
import org.apache.lucene.codecs.lucene99.Lucene99HnswVectorsWriter;
import org.apache.lucene.index.SegmentReadState;
import org.apache.lucene.index.SegmentWriteState;

/**
 * HNSW over 1-bit sign codes: Lucene's HNSW writer and reader on top of {@link
 * BinaryFlatVectorsFormat}, the reader with a denser visited set ({@link BinaryHnswVectorsReader}).
 * A float query walks the graph with the estimated similarity of {@link SignCodeEstimator} (query
 * quantised to 4 bits against the 1-bit codes), and hits carry that estimated score (see {@link
 * BinaryFlatVectorsScorer}). A flushed segment's graph is built on exact similarities, a merged
 * segment's on codes: with stored floats by the same estimate, each node taken as the 4-bit query
 * of its float vector ({@link MergeGraphScorerSupplier}); without, by Hamming similarity between
 * codes.
 *
 * <h2>Files</h2>
 *
 * <ul>
 *   <li>{@code .vem} (graph metadata) and {@code .vex} (graph): written and read by Lucene's {@link
 *       Lucene99HnswVectorsWriter} and {@link Lucene99HnswVectorsReader}, unchanged; their fields,
 *       in order, are listed in {@link Lucene99HnswVectorsFormat}'s documentation. The graph's
 *       node ordinals are the ordinals of the records in {@code .vbc}.
 *   <li>{@code .vbm} (metadata), {@code .vbc} (codes, one fixed-size record per vector, padded to
 *       cache lines) and {@code .vbf} (the float32 vectors of fields with {@code storeFloats},
 *       packed without loss): see {@link BinaryFlatVectorsFormat}, which lists every field, the
 *       flag bits, the end-of-fields marker and the record sizes.
 *   <li>{@code .vemf} and {@code .vec}: {@link
 *       org.apache.lucene.codecs.lucene99.Lucene99FlatVectorsFormat}'s files, holding every
 *       byte-vector field (and, in segments of version 1, the float32 vectors of fields with
 *       {@code storeFloats}).
 * </ul>
 *
 * <p>Registered through SPI as {@value #NAME}. {@code m} and {@code beamWidth} only shape the graph
 * being written ({@code m} is stored in the graph metadata), and the storage options are stored in
 * the codes' metadata, so segments reopen through {@link #BinaryHnswVectorsFormat()} whatever
 * parameters wrote them.
 */
public final class BinaryHnswVectorsFormat extends KnnVectorsFormat {

    public static final String NAME = "CompressBinaryHnsw";

    private final HnswParameters hnsw;
    private final BinaryCodeOptions options;
    private final BinaryFlatVectorsFormat flatFormat;

    /** Defaults: Lucene's m and beam width, floats stored, centred codes. Used by SPI to read. */
    public BinaryHnswVectorsFormat() {
        this(HnswParameters.DEFAULT, BinaryCodeOptions.DEFAULT);
    }

    public BinaryHnswVectorsFormat(HnswParameters hnsw, BinaryCodeOptions options) {
        super(NAME);
        this.hnsw = hnsw;
        this.options = options;
        this.flatFormat = new BinaryFlatVectorsFormat(options);
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
        FlatVectorsReader flat = flatFormat.fieldsReader(state);
        return new BinaryHnswVectorsReader(new Lucene99HnswVectorsReader(state, flat), flat);
    }

    @Override
    public int getMaxDimensions(String fieldName) {
        return VectorLimits.MAX_DIMENSIONS;
    }

    @Override
    public String toString() {
        return NAME + "(" + hnsw + ", " + options + ")";
    }
}
