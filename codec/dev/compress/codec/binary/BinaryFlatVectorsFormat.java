package dev.compress.codec.binary;

import dev.compress.codec.VectorLimits;
import java.io.IOException;
import org.apache.lucene.codecs.hnsw.FlatVectorScorerUtil;
import org.apache.lucene.codecs.hnsw.FlatVectorsFormat;
import org.apache.lucene.codecs.hnsw.FlatVectorsWriter;
import org.apache.lucene.codecs.lucene99.Lucene99FlatVectorsFormat;
import org.apache.lucene.index.SegmentReadState;
import org.apache.lucene.index.SegmentWriteState;

/**
 * Flat storage of 1-bit sign codes for float vector fields, optionally with the float32 vectors.
 *
 * <p>Files (each with a Lucene index header and a checksummed footer):
 *
 * <ul>
 *   <li>{@code .vbm} metadata, per field: dimension, flags (floats stored, centred), location of
 *       the codes, vector count, centre, per-dimension scale, ordinal-to-document mapping;
 *   <li>{@code .vbc} data: per vector in ordinal order, its code ({@code ceil(dims / 8)} bytes)
 *       and three float corrections (12 bytes), followed by the doc-id set of sparse fields;
 *   <li>the float32 vectors and byte vector fields go to {@link Lucene99FlatVectorsFormat}'s
 *       {@code .vemf}/{@code .vec} files. Without stored floats those files still exist but hold
 *       only byte fields.
 * </ul>
 *
 * The storage options are written into the metadata, so a reader opened through SPI with default
 * options reads segments written with any options.
 */
public final class BinaryFlatVectorsFormat extends FlatVectorsFormat {

  public static final String NAME = "CompressBinaryFlat";
  static final String META_CODEC_NAME = "CompressBinaryFlatMeta";
  static final String DATA_CODEC_NAME = "CompressBinaryFlatData";
  static final String META_EXTENSION = "vbm";
  static final String DATA_EXTENSION = "vbc";
  /** Version 1 pads records to cache lines ({@link SignBinarizer#recordBytes}); 0 was never released. */
  static final int VERSION_START = 1;
  static final int VERSION_CURRENT = VERSION_START;

  private final BinaryCodeOptions options;
  private final BinaryFlatVectorsScorer scorer;
  private final FlatVectorsFormat rawFormat;

  public BinaryFlatVectorsFormat(BinaryCodeOptions options) {
    super(NAME);
    this.options = options;
    this.scorer = new BinaryFlatVectorsScorer(FlatVectorScorerUtil.getLucene99FlatVectorsScorer());
    this.rawFormat = new Lucene99FlatVectorsFormat(FlatVectorScorerUtil.getLucene99FlatVectorsScorer());
  }

  @Override
  public FlatVectorsWriter fieldsWriter(SegmentWriteState state) throws IOException {
    return new BinaryFlatVectorsWriter(state, options, rawFormat.fieldsWriter(state), scorer);
  }

  @Override
  public BinaryFlatVectorsReader fieldsReader(SegmentReadState state) throws IOException {
    return new BinaryFlatVectorsReader(state, rawFormat.fieldsReader(state), scorer);
  }

  @Override
  public int getMaxDimensions(String fieldName) {
    return VectorLimits.MAX_DIMENSIONS;
  }

  @Override
  public String toString() {
    return NAME + "(options=" + options + ", rawFormat=" + rawFormat + ")";
  }
}
