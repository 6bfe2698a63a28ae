package dev.compress.codec.binary;

import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import org.apache.lucene.codecs.CodecUtil;
import org.apache.lucene.codecs.KnnVectorsReader;
import org.apache.lucene.codecs.hnsw.FlatVectorsReader;
import org.apache.lucene.codecs.lucene95.OrdToDocDISIReaderConfiguration;
import org.apache.lucene.index.ByteVectorValues;
import org.apache.lucene.index.CorruptIndexException;
import org.apache.lucene.index.FieldInfo;
import org.apache.lucene.index.FieldInfos;
import org.apache.lucene.index.FloatVectorValues;
import org.apache.lucene.index.IndexFileNames;
import org.apache.lucene.index.SegmentReadState;
import org.apache.lucene.index.VectorEncoding;
import org.apache.lucene.store.ChecksumIndexInput;
import org.apache.lucene.store.DataAccessHint;
import org.apache.lucene.store.FileDataHint;
import org.apache.lucene.store.FileTypeHint;
import org.apache.lucene.store.IndexInput;
import org.apache.lucene.util.IOUtils;
import org.apache.lucene.util.RamUsageEstimator;
import org.apache.lucene.util.hnsw.RandomVectorScorer;

/**
 * Reads {@link BinaryFlatVectorsFormat}. Float fields read back as their stored float32 vectors
 * when the segment kept them (from {@code .vbf}, or from the raw flat format's {@code .vec} in
 * segments of version 1), as decoded codes otherwise; in both cases {@code
 * FloatVectorValues#scorer} scores like the graph search and {@code FloatVectorValues#rescorer}
 * with the best fidelity available (exact floats, or the float-arithmetic estimate from codes).
 */
public final class BinaryFlatVectorsReader extends FlatVectorsReader {

    private static final long SHALLOW_SIZE = RamUsageEstimator.shallowSizeOfInstance(BinaryFlatVectorsReader.class);

    private final FlatVectorsReader rawReader;
    private final BinaryFlatVectorsScorer scorer;
    private final FieldInfos fieldInfos;
    private final Map<String, BinaryFieldEntry> fields = new HashMap<>();
    private final IndexInput data;
    /** The packed floats; null for a segment of version 1. */
    private final IndexInput floats;

    BinaryFlatVectorsReader(SegmentReadState state, FlatVectorsReader rawReader, BinaryFlatVectorsScorer scorer)
            throws IOException {
        super(scorer);
        this.rawReader = rawReader;
        this.scorer = scorer;
        this.fieldInfos = state.fieldInfos;
        boolean success = false;
        try {
            int version = readMeta(state);
            String dataName = IndexFileNames.segmentFileName(
                    state.segmentInfo.name, state.segmentSuffix, BinaryFlatVectorsFormat.DATA_EXTENSION);
            this.data = state.directory.openInput(
                    dataName,
                    state.context.withHints(FileTypeHint.DATA, FileDataHint.KNN_VECTORS, DataAccessHint.RANDOM));
            int dataVersion = CodecUtil.checkIndexHeader(
                    data,
                    BinaryFlatVectorsFormat.DATA_CODEC_NAME,
                    BinaryFlatVectorsFormat.VERSION_START,
                    BinaryFlatVectorsFormat.VERSION_CURRENT,
                    state.segmentInfo.getId(),
                    state.segmentSuffix);
            if (dataVersion != version) {
                throw new CorruptIndexException(
                        "format versions mismatch: meta=" + version + ", data=" + dataVersion, data);
            }
            CodecUtil.retrieveChecksum(data);
            this.floats = version >= BinaryFlatVectorsFormat.VERSION_PACKED_FLOATS ? openFloats(state, version) : null;
            success = true;
        } finally {
            if (success == false) {
                IOUtils.closeWhileHandlingException(this);
            }
        }
    }

    private static IndexInput openFloats(SegmentReadState state, int version) throws IOException {
        String name = IndexFileNames.segmentFileName(
                state.segmentInfo.name, state.segmentSuffix, BinaryFlatVectorsFormat.FLOATS_EXTENSION);
        IndexInput input = state.directory.openInput(
                name, state.context.withHints(FileTypeHint.DATA, FileDataHint.KNN_VECTORS, DataAccessHint.RANDOM));
        boolean success = false;
        try {
            CodecUtil.checkIndexHeader(
                    input,
                    BinaryFlatVectorsFormat.FLOATS_CODEC_NAME,
                    version,
                    version,
                    state.segmentInfo.getId(),
                    state.segmentSuffix);
            CodecUtil.retrieveChecksum(input);
            success = true;
            return input;
        } finally {
            if (success == false) {
                IOUtils.closeWhileHandlingException(input);
            }
        }
    }

    private int readMeta(SegmentReadState state) throws IOException {
        String metaName = IndexFileNames.segmentFileName(
                state.segmentInfo.name, state.segmentSuffix, BinaryFlatVectorsFormat.META_EXTENSION);
        int version = -1;
        try (ChecksumIndexInput meta = state.directory.openChecksumInput(metaName)) {
            Throwable priorE = null;
            try {
                version = CodecUtil.checkIndexHeader(
                        meta,
                        BinaryFlatVectorsFormat.META_CODEC_NAME,
                        BinaryFlatVectorsFormat.VERSION_START,
                        BinaryFlatVectorsFormat.VERSION_CURRENT,
                        state.segmentInfo.getId(),
                        state.segmentSuffix);
                for (int number = meta.readInt();
                        number != BinaryFlatVectorsFormat.END_OF_FIELDS;
                        number = meta.readInt()) {
                    FieldInfo info = state.fieldInfos.fieldInfo(number);
                    if (info == null) {
                        throw new CorruptIndexException("invalid field number: " + number, meta);
                    }
                    fields.put(info.name, readEntry(meta, info, version));
                }
            } catch (Throwable t) {
                priorE = t;
            } finally {
                CodecUtil.checkFooter(meta, priorE);
            }
        }
        return version;
    }

    private static BinaryFieldEntry readEntry(ChecksumIndexInput meta, FieldInfo info, int version) throws IOException {
        int dims = meta.readVInt();
        if (dims != info.getVectorDimension() || info.getVectorEncoding() != VectorEncoding.FLOAT32) {
            throw new CorruptIndexException(
                    "field \"" + info.name + "\": stored dimension " + dims + " does not match " + info, meta);
        }
        byte flags = meta.readByte();
        long codesOffset = meta.readVLong();
        long codesLength = meta.readVLong();
        int size = meta.readVInt();
        if (codesLength != (long) size * SignBinarizer.recordBytes(dims)) {
            throw new CorruptIndexException(
                    "field \"" + info.name + "\": " + codesLength + " bytes of codes for " + size + " vectors", meta);
        }
        float[] centroid = readFloats(meta, dims);
        float[] scale = readFloats(meta, dims);
        OrdToDocDISIReaderConfiguration docs = OrdToDocDISIReaderConfiguration.fromStoredMeta(meta, size);
        boolean storeFloats = (flags & BinaryFlatVectorsFormat.FLAG_STORE_FLOATS) != 0;
        PackedFloatsEntry floats = storeFloats && version >= BinaryFlatVectorsFormat.VERSION_PACKED_FLOATS
                ? PackedFloatsEntry.read(meta, dims, size)
                : null;
        return new BinaryFieldEntry(
                dims,
                storeFloats,
                (flags & BinaryFlatVectorsFormat.FLAG_CENTRED) != 0,
                codesOffset,
                codesLength,
                size,
                centroid,
                scale,
                docs,
                floats);
    }

    private static float[] readFloats(ChecksumIndexInput meta, int n) throws IOException {
        float[] values = new float[n];
        for (int i = 0; i < n; i++) {
            values[i] = Float.intBitsToFloat(meta.readInt());
        }
        return values;
    }

    /** The field's codes; null for fields this format does not binarise (byte vectors). */
    public BinarizedVectorValues codes(String field) throws IOException {
        BinaryFieldEntry entry = fields.get(field);
        if (entry == null) {
            return null;
        }
        FieldInfo info = fieldInfos.fieldInfo(field);
        return OffHeapBinarizedVectorValues.load(entry, info.getVectorSimilarityFunction(), data);
    }

    @Override
    public FloatVectorValues getFloatVectorValues(String field) throws IOException {
        BinarizedVectorValues codes = codes(field);
        if (codes == null) {
            return rawReader.getFloatVectorValues(field);
        }
        BinaryFieldEntry entry = fields.get(field);
        if (entry.floats() != null) {
            return new StoredFloatVectorValues(
                    new PackedFloatVectorValues(entry.floats(), floats, codes, codes.similarity()), codes, scorer);
        }
        if (entry.storeFloats()) {
            return new StoredFloatVectorValues(rawReader.getFloatVectorValues(field), codes, scorer);
        }
        return new DecodedFloatVectorValues(codes, scorer);
    }

    @Override
    public ByteVectorValues getByteVectorValues(String field) throws IOException {
        return rawReader.getByteVectorValues(field);
    }

    @Override
    public RandomVectorScorer getRandomVectorScorer(String field, float[] target) throws IOException {
        BinarizedVectorValues codes = codes(field);
        if (codes == null) {
            return rawReader.getRandomVectorScorer(field, target);
        }
        return scorer.getRandomVectorScorer(codes.similarity(), codes, target);
    }

    @Override
    public RandomVectorScorer getRandomVectorScorer(String field, byte[] target) throws IOException {
        return rawReader.getRandomVectorScorer(field, target);
    }

    @Override
    public void checkIntegrity() throws IOException {
        rawReader.checkIntegrity();
        CodecUtil.checksumEntireFile(data);
        if (floats != null) {
            CodecUtil.checksumEntireFile(floats);
        }
    }

    @Override
    public Map<String, Long> getOffHeapByteSize(FieldInfo fieldInfo) {
        BinaryFieldEntry entry = fields.get(fieldInfo.name);
        if (entry == null) {
            return rawReader.getOffHeapByteSize(fieldInfo);
        }
        Map<String, Long> codes = Map.of(BinaryFlatVectorsFormat.DATA_EXTENSION, entry.codesLength());
        if (entry.floats() != null) {
            return Map.of(
                    BinaryFlatVectorsFormat.DATA_EXTENSION,
                    entry.codesLength(),
                    BinaryFlatVectorsFormat.FLOATS_EXTENSION,
                    entry.floats().length());
        }
        if (entry.storeFloats() == false) {
            return codes;
        }
        return KnnVectorsReader.mergeOffHeapByteSizeMaps(rawReader.getOffHeapByteSize(fieldInfo), codes);
    }

    @Override
    public long ramBytesUsed() {
        long total = SHALLOW_SIZE + rawReader.ramBytesUsed();
        for (BinaryFieldEntry entry : fields.values()) {
            total += 2L * entry.dims() * Float.BYTES + RamUsageEstimator.NUM_BYTES_OBJECT_HEADER;
        }
        return total;
    }

    @Override
    public void close() throws IOException {
        IOUtils.close(data, floats, rawReader);
    }
}
