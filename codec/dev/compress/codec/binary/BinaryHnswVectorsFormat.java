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
 * BinaryFlatVectorsFormat} (the reader with a denser visited set, {@link BinaryHnswVectorsReader}). A float query walks the graph with the estimated similarity of {@link
 * SignCodeEstimator} (query quantised to 4 bits against the 1-bit codes), and hits carry that
 * estimated score (see {@link BinaryFlatVectorsScorer}). A flushed segment's graph is built on
 * exact similarities, a merged segment's on codes: with stored floats by the same estimate, each
 * node taken as the 4-bit query of its float vector ({@link MergeGraphScorerSupplier}); without,
 * by Hamming similarity between codes.
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
