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
 * {@code m} / {@code beamWidth}. Files are those of {@link Lucene99HnswVectorsFormat}; the format
 * has its own SPI name ({@value #NAME}) only so that the raised dimension limit travels with it.
 * Scores are Lucene's for the field's similarity (dot product: {@code (1 + dot) / 2}).
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
