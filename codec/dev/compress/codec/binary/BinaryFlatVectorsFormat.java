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
 * Registered as {@value #NAME}; {@link BinaryHnswVectorsFormat} puts Lucene's HNSW graph on top.
 *
 * <p>A segment has three files of its own, {@code .vbm} (metadata), {@code .vbc} (codes) and {@code
 * .vbf} (the float32 vectors of fields that keep them), and the files of {@link
 * Lucene99FlatVectorsFormat} ({@code .vemf}, {@code .vec}), which hold every byte-vector field (and,
 * in segments of version 1, the float32 vectors too). Fixed-width numbers are written
 * with Lucene's {@link org.apache.lucene.store.DataOutput} (little-endian); {@code vint} and
 * {@code vlong} are its variable-length encodings. A {@code float32} is stored as the {@code int32}
 * of its IEEE 754 bits.
 *
 * <h2>.vbm (metadata) file</h2>
 *
 * <ul>
 *   <li>Index header ({@link org.apache.lucene.codecs.CodecUtil#writeIndexHeader}), codec name
 *       {@value #META_CODEC_NAME}, version {@value #VERSION_CURRENT}, the segment id and suffix.
 *   <li>For each float field of the segment, in the order the fields were written:
 *       <ul>
 *         <li><b>[int32]</b> field number (never {@value #END_OF_FIELDS})
 *         <li><b>[vint]</b> dimension {@code D} (the reader checks it against the field's)
 *         <li><b>[byte]</b> flags: {@link #FLAG_STORE_FLOATS} ({@value #FLAG_STORE_FLOATS}) when the
 *             float32 vectors were kept, {@link #FLAG_CENTRED}
 *             ({@value #FLAG_CENTRED}) when codes were taken against the segment mean; the other
 *             bits are 0
 *         <li><b>[vlong]</b> offset of the field's first record in {@code .vbc}, a multiple of 64
 *         <li><b>[vlong]</b> length of the field's records in bytes: {@code count x
 *             recordBytes(D)} (the reader rejects any other value)
 *         <li><b>[vint]</b> {@code count}: vectors of the field in the segment
 *         <li><b>[float32 x D]</b> centre {@code c}: the mean of the (cosine: L2-normalised)
 *             vectors when centred, zeros otherwise
 *         <li><b>[float32 x D]</b> scale: per dimension, the mean absolute deviation from the
 *             centre (decoding a code gives {@code c_i + scale_i} or {@code c_i - scale_i})
 *         <li>The ordinal-to-document mapping, as Lucene's {@link
 *             org.apache.lucene.codecs.lucene95.OrdToDocDISIReaderConfiguration#writeStoredMeta}
 *             writes it: <b>[int64]</b> {@code -2} (no vector), {@code -1} (every document has
 *             one) or the {@code .vbc} offset of the documents' {@link
 *             org.apache.lucene.codecs.lucene90.IndexedDISI} set; <b>[int64]</b> that set's length
 *             (0 unless sparse); <b>[int16]</b> its jump-table entry count ({@code -1} unless
 *             sparse); <b>[int8]</b> its dense rank power ({@code -1} unless sparse). Only when
 *             sparse, then: <b>[int64]</b> {@code .vbc} offset of the ordinal-to-document table,
 *             <b>[vint]</b> its block shift ({@code 16}), the {@link
 *             org.apache.lucene.util.packed.DirectMonotonicWriter} block metadata, <b>[int64]</b>
 *             the table's length.
 *         <li>Only with {@link #FLAG_STORE_FLOATS}, where the floats are in {@code .vbf}:
 *             <b>[vlong]</b> offset of the field's first record there, a multiple of 64;
 *             <b>[vlong]</b> length of its records (and their exceptions) in bytes; <b>[byte]</b>
 *             1 when packed, 0 when plain float32 (then the length must be {@code count x 4D}).
 *             Only when packed, then: <b>[byte x D]</b> each dimension's window top (at least 6;
 *             see {@link FloatPacking}); <b>[vlong]</b> {@code .vbf} offset of the record offsets'
 *             table; <b>[vint]</b> its block shift ({@code 16}); the {@link
 *             org.apache.lucene.util.packed.DirectMonotonicWriter} block metadata of its {@code
 *             count + 1} values; <b>[vlong]</b> the table's length.
 *       </ul>
 *   <li><b>[int32]</b> {@value #END_OF_FIELDS}: end of the fields
 *   <li>Footer ({@link org.apache.lucene.codecs.CodecUtil#writeFooter}): magic, algorithm id, CRC32
 *       of the file.
 * </ul>
 *
 * <h2>.vbc (codes) file</h2>
 *
 * <ul>
 *   <li>Index header, codec name {@value #DATA_CODEC_NAME}, the same version as {@code .vbm}
 *       (the reader rejects a mismatch).
 *   <li>For each field, in the order of {@code .vbm}:
 *       <ul>
 *         <li>zero bytes up to the next multiple of 64 bytes ({@code SignBinarizer.CACHE_LINE}) from the
 *             start of the file, so that every record starts on a cache line of the mapped file
 *         <li>{@code count} records in ordinal order, {@link SignBinarizer#recordBytes
 *             recordBytes(D)} bytes each:
 *             <ul>
 *               <li><b>[byte x ceil(D / 8)]</b> the code: bit {@code i % 8} of byte {@code i / 8}
 *                   (least significant first) is set when component {@code i} of the vector
 *                   (cosine: L2-normalised) is above {@code c_i}; bits past {@code D} are 0
 *               <li><b>[float32]</b> {@code |x - c|^2 / sum_i |x_i - c_i|}, the factor of the
 *                   inner-product estimate (0 when {@code x = c}; see {@link
 *                   SignBinarizer#corrections})
 *               <li><b>[float32]</b> {@code <c, x>}
 *               <li><b>[float32]</b> {@code |x|^2}
 *               <li><b>[byte x p]</b> zeros, {@code p = recordBytes(D) - ceil(D / 8) - 12}
 *             </ul>
 *         <li>only for a sparse field: the {@code IndexedDISI} document set, then the
 *             direct-monotonic ordinal-to-document table, at the offsets {@code .vbm} gives
 *       </ul>
 *   <li>Footer.
 * </ul>
 *
 * <h2>.vbf (floats) file</h2>
 *
 * <ul>
 *   <li>Index header, codec name {@value #FLOATS_CODEC_NAME}, the same version as {@code .vbm}.
 *   <li>For each field with {@link #FLAG_STORE_FLOATS}, in the order of {@code .vbm}:
 *       <ul>
 *         <li>zero bytes up to the next multiple of 64 bytes from the start of the file
 *         <li>packed: {@code count} records in ordinal order, each {@link FloatPacking}'s record
 *             of {@code 3D + ceil(D / 2)} bytes (three byte planes of bits 0 to 23, then the
 *             sign-and-exponent nibbles), followed by its exceptions, <b>[int32]</b> component
 *             and <b>[int32]</b> the float's bits each, in component order; then the
 *             direct-monotonic table of {@code count + 1} offsets, relative to the first record:
 *             record {@code o} starts at offset {@code o}, and its exceptions fill the bytes up to
 *             offset {@code o + 1}
 *         <li>plain: {@code count} records of <b>[float32 x D]</b>, chosen when the exceptions
 *             would make packing no smaller
 *       </ul>
 *   <li>Footer.
 * </ul>
 *
 * <p>Record size. With {@code r = ceil(D / 8) + 12}: a record of at most 64 bytes is padded to the
 * next power of two, so that it never straddles two cache lines; a longer one is padded to a
 * whole number of 64-byte lines when that adds at most {@code r / 4} bytes (integer division),
 * and is not padded otherwise. For example D = 64: 20 -> 32 bytes; 128: 28 -> 32; 256: 44 -> 64;
 * 384: 60 -> 64; 512: 76 (unpadded); 768: 108 -> 128; 1,024: 140 (unpadded); 1,536: 204
 * (unpadded); 2,048: 268 -> 320; 4,096: 524 -> 576. A field's records take {@code count x
 * recordBytes(D)} bytes.
 *
 * <h2>Temporary files of a merge</h2>
 *
 * A merge that builds a graph writes two temporary files beside {@code .vbc} (no header, no footer;
 * deleted once the graph is built): a copy of the new records in the layout above, starting at
 * offset 0, and, when floats are stored, one query record per ordinal ({@code QuantizedQuery}):
 * <b>[int64 x 4W]</b> four bit planes of {@code W = ceil(D / 64)} words each (plane {@code b} holds
 * bit {@code b} of every dimension's 4-bit level, dimension {@code i} at bit {@code i % 64} of word
 * {@code i / 64}), <b>[float32]</b> lower bound, <b>[float32]</b> step, <b>[float32]</b> {@code
 * <q, c> - <c, c>}, <b>[float32]</b> {@code |q|^2}, <b>[int64]</b> sum of the levels: {@code 32 W +
 * 24} bytes (216 at 384-d).
 *
 * <p>The storage options are read from the metadata, so a reader opened through SPI with default
 * options reads segments written with any options.
 */
public final class BinaryFlatVectorsFormat extends FlatVectorsFormat {

    public static final String NAME = "CompressBinaryFlat";
    static final String META_CODEC_NAME = "CompressBinaryFlatMeta";
    static final String DATA_CODEC_NAME = "CompressBinaryFlatData";
    static final String META_EXTENSION = "vbm";
    /** The codes: the file to keep in memory (a node's warmup reads it, {@code index.store.preload} may map it). */
    public static final String DATA_EXTENSION = "vbc";
    /** The float32 vectors, read for rescoring and derived source. */
    public static final String FLOATS_EXTENSION = "vbf";

    static final String FLOATS_CODEC_NAME = "CompressBinaryFlatFloats";

    /** Version 1 pads records to cache lines ({@link SignBinarizer#recordBytes}); 0 was never released. */
    static final int VERSION_START = 1;

    /** Version 2 keeps float32 vectors packed in {@code .vbf}; version 1 kept them in Lucene's {@code .vec}. */
    static final int VERSION_PACKED_FLOATS = 2;

    public static final int VERSION_CURRENT = VERSION_PACKED_FLOATS;

    /** Flag bit of a field's metadata: the float32 vectors are stored, for exact rescoring. */
    static final int FLAG_STORE_FLOATS = 1;

    /** Flag bit of a field's metadata: codes were taken against the segment mean, not zero. */
    static final int FLAG_CENTRED = 2;

    /** Field number that ends the metadata's list of fields. */
    static final int END_OF_FIELDS = -1;

    /**
     * Bytes of one {@code dims}-dimensional vector's packed floats in {@code .vbf}, before the 8
     * bytes of each of its exceptions (components outside their dimension's exponent window).
     */
    public static int packedFloatBytes(int dims) {
        return FloatPacking.recordBytes(dims);
    }

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
