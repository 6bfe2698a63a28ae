package dev.compress.codec.binary;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.lucene.codecs.CodecUtil;
import org.apache.lucene.codecs.KnnVectorsWriter;
import org.apache.lucene.codecs.hnsw.FlatFieldVectorsWriter;
import org.apache.lucene.codecs.hnsw.FlatVectorsWriter;
import org.apache.lucene.codecs.lucene95.OrdToDocDISIReaderConfiguration;
import org.apache.lucene.index.DocsWithFieldSet;
import org.apache.lucene.index.FieldInfo;
import org.apache.lucene.index.FloatVectorValues;
import org.apache.lucene.index.IndexFileNames;
import org.apache.lucene.index.KnnVectorValues;
import org.apache.lucene.index.MergeState;
import org.apache.lucene.index.SegmentWriteState;
import org.apache.lucene.index.Sorter;
import org.apache.lucene.index.VectorEncoding;
import org.apache.lucene.index.VectorSimilarityFunction;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.store.IndexInput;
import org.apache.lucene.store.IndexOutput;
import org.apache.lucene.util.IOUtils;
import org.apache.lucene.util.RamUsageEstimator;
import org.apache.lucene.util.hnsw.CloseableRandomVectorScorerSupplier;
import org.apache.lucene.util.hnsw.RandomVectorScorerSupplier;
import org.apache.lucene.util.hnsw.UpdateableRandomVectorScorer;

/**
 * Writes {@link BinaryFlatVectorsFormat}: codes, float32 vectors (when kept, {@link
 * PackedFloatsWriter}) and metadata itself, byte fields through the raw flat writer. Codes are
 * taken from floats against the new segment's centre, at flush from the indexing buffer and at
 * merge from the stored float vectors;
 * a merge of segments that kept only codes keeps the codes and moves their corrections to the new
 * centre ({@link MergedCodeSources}).
 */
final class BinaryFlatVectorsWriter extends FlatVectorsWriter {

    private static final long SHALLOW_SIZE = RamUsageEstimator.shallowSizeOfInstance(BinaryFlatVectorsWriter.class);
    private static final int DIRECT_MONOTONIC_BLOCK_SHIFT = 16;

    private final SegmentWriteState state;
    private final BinaryCodeOptions options;
    private final FlatVectorsWriter rawWriter;
    private final List<FloatField> floatFields = new ArrayList<>();
    private IndexOutput meta;
    private IndexOutput data;
    private IndexOutput floats;
    private boolean finished;

    /** A float field being indexed and the writer that buffers its vectors. */
    private record FloatField(FieldInfo info, BufferedFloatFieldWriter vectors) {}

    /**
     * One pass over a field's vectors in ordinal order; run twice: the segment's statistics (the
     * codes' centre, the floats' exponent windows), then codes and floats.
     */
    @FunctionalInterface
    private interface VectorPass {
        void run(VectorSink sink) throws IOException;
    }

    @FunctionalInterface
    private interface VectorSink {
        void accept(float[] vector) throws IOException;
    }

    /** Centre and scale a field's codes were written with, and how many codes. */
    private record CodeStats(float[] centroid, float[] scale, int count) {}

    /**
     * Temporary files a merge builds the new graph from: a copy of the codes (the data file cannot be
     * read back while it is being written) and, when not null, each vector's 4-bit query form ({@link
     * MergeGraphScorerSupplier}).
     */
    private record GraphInputs(IndexOutput codes, IndexOutput queries) {}

    BinaryFlatVectorsWriter(
            SegmentWriteState state,
            BinaryCodeOptions options,
            FlatVectorsWriter rawWriter,
            BinaryFlatVectorsScorer scorer)
            throws IOException {
        super(scorer);
        this.state = state;
        this.options = options;
        this.rawWriter = rawWriter;
        try {
            meta = state.directory.createOutput(fileName(BinaryFlatVectorsFormat.META_EXTENSION), state.context);
            data = state.directory.createOutput(fileName(BinaryFlatVectorsFormat.DATA_EXTENSION), state.context);
            floats = state.directory.createOutput(fileName(BinaryFlatVectorsFormat.FLOATS_EXTENSION), state.context);
            CodecUtil.writeIndexHeader(
                    meta,
                    BinaryFlatVectorsFormat.META_CODEC_NAME,
                    BinaryFlatVectorsFormat.VERSION_CURRENT,
                    state.segmentInfo.getId(),
                    state.segmentSuffix);
            CodecUtil.writeIndexHeader(
                    data,
                    BinaryFlatVectorsFormat.DATA_CODEC_NAME,
                    BinaryFlatVectorsFormat.VERSION_CURRENT,
                    state.segmentInfo.getId(),
                    state.segmentSuffix);
            CodecUtil.writeIndexHeader(
                    floats,
                    BinaryFlatVectorsFormat.FLOATS_CODEC_NAME,
                    BinaryFlatVectorsFormat.VERSION_CURRENT,
                    state.segmentInfo.getId(),
                    state.segmentSuffix);
        } catch (Throwable t) {
            IOUtils.closeWhileHandlingException(this);
            throw t;
        }
    }

    private String fileName(String extension) {
        return IndexFileNames.segmentFileName(state.segmentInfo.name, state.segmentSuffix, extension);
    }

    @Override
    public FlatFieldVectorsWriter<?> addField(FieldInfo fieldInfo) throws IOException {
        if (fieldInfo.getVectorEncoding() != VectorEncoding.FLOAT32) {
            return rawWriter.addField(fieldInfo);
        }
        BufferedFloatFieldWriter vectors = new BufferedFloatFieldWriter(fieldInfo);
        floatFields.add(new FloatField(fieldInfo, vectors));
        return vectors;
    }

    @Override
    public void flush(int maxDoc, Sorter.DocMap sortMap) throws IOException {
        rawWriter.flush(maxDoc, sortMap);
        for (FloatField field : floatFields) {
            List<float[]> vectors = field.vectors().getVectors();
            DocsWithFieldSet docs = field.vectors().getDocsWithFieldSet();
            final int[] newToOld;
            if (sortMap != null) {
                newToOld = new int[docs.cardinality()];
                DocsWithFieldSet sortedDocs = new DocsWithFieldSet();
                KnnVectorsWriter.mapOldOrdToNewOrd(docs, sortMap, null, newToOld, sortedDocs);
                docs = sortedDocs;
            } else {
                newToOld = null;
            }
            VectorPass pass = sink -> {
                for (int ord = 0; ord < vectors.size(); ord++) {
                    sink.accept(vectors.get(newToOld == null ? ord : newToOld[ord]));
                }
            };
            writeField(field.info(), pass, docs, maxDoc, null);
            field.vectors().finish();
        }
    }

    /**
     * Writes one field's codes, its floats when they are kept, and its metadata (and the merged
     * graph's inputs when {@code graphInputs} is not null), and returns the centre and scale used.
     */
    private CodeStats writeField(
            FieldInfo info, VectorPass pass, DocsWithFieldSet docs, int maxDoc, GraphInputs graphInputs)
            throws IOException {
        int dims = info.getVectorDimension();
        int count = docs.cardinality();
        VectorSimilarityFunction similarity = info.getVectorSimilarityFunction();
        float[] scratch = new float[dims];
        float[] centroid = new float[dims];
        ExponentWindows windows = options.storeFloats() ? new ExponentWindows(dims) : null;
        if ((options.centred() || windows != null) && count > 0) {
            pass.run(v -> {
                if (windows != null) {
                    windows.add(v);
                }
                if (options.centred()) {
                    float[] p = SignBinarizer.prepare(v, similarity, scratch);
                    for (int i = 0; i < dims; i++) {
                        centroid[i] += p[i];
                    }
                }
            });
            for (int i = 0; options.centred() && i < dims; i++) {
                centroid[i] /= count;
            }
        }
        PackedFloatsWriter floatsWriter = windows == null ? null : new PackedFloatsWriter(floats, dims, count, windows);
        float[] scale = new float[dims];
        byte[] code = new byte[SignBinarizer.codeBytes(dims)];
        float[] corrections = new float[SignBinarizer.CORRECTIONS];
        byte[] padding = padding(dims);
        // records start on a cache line (files are mapped at page boundaries)
        long codesOffset = data.alignFilePointer(SignBinarizer.CACHE_LINE);
        pass.run(v -> {
            float[] p = SignBinarizer.prepare(v, similarity, scratch);
            SignBinarizer.binarize(p, centroid, code);
            SignBinarizer.corrections(p, centroid, corrections);
            writeRecord(data, code, corrections, padding);
            if (floatsWriter != null) {
                floatsWriter.add(v);
            }
            if (graphInputs != null) {
                writeRecord(graphInputs.codes(), code, corrections, padding);
                if (graphInputs.queries() != null) {
                    new SignCodeEstimator(v, centroid, similarity).quantized().write(graphInputs.queries());
                }
            }
            for (int i = 0; i < dims; i++) {
                scale[i] += Math.abs(p[i] - centroid[i]);
            }
        });
        if (count > 0) {
            for (int i = 0; i < dims; i++) {
                scale[i] /= count;
            }
        }
        writeMeta(info, codesOffset, docs, maxDoc, centroid, scale, floatsWriter);
        return new CodeStats(centroid, scale, count);
    }

    /**
     * A codes-only merge: every record comes from {@link MergedCodeSources}, also copied to {@code
     * graphCodes} when not null (the merged graph's input).
     */
    private CodeStats writeMergedCodes(FieldInfo info, MergeState mergeState, IndexOutput graphCodes)
            throws IOException {
        int dims = info.getVectorDimension();
        MergedCodeSources sources = new MergedCodeSources(info, mergeState);
        float[] centroid = options.centred() ? sources.centre() : new float[dims];
        float[] scale = new float[dims];
        DocsWithFieldSet docs = new DocsWithFieldSet();
        byte[] padding = padding(dims);
        long codesOffset = data.alignFilePointer(SignBinarizer.CACHE_LINE);
        sources.forEach(centroid, (doc, code, corrections, spread) -> {
            docs.add(doc);
            writeRecord(data, code, corrections, padding);
            if (graphCodes != null) {
                writeRecord(graphCodes, code, corrections, padding);
            }
            for (int i = 0; i < dims; i++) {
                scale[i] += spread[i];
            }
        });
        int count = docs.cardinality();
        for (int i = 0; count > 0 && i < dims; i++) {
            scale[i] /= count;
        }
        writeMeta(info, codesOffset, docs, state.segmentInfo.maxDoc(), centroid, scale, null);
        return new CodeStats(centroid, scale, count);
    }

    /**
     * The field's metadata, after its records (which start at {@code codesOffset}) and its floats
     * (when {@code floatsWriter} is not null) are written.
     */
    private void writeMeta(
            FieldInfo info,
            long codesOffset,
            DocsWithFieldSet docs,
            int maxDoc,
            float[] centroid,
            float[] scale,
            PackedFloatsWriter floatsWriter)
            throws IOException {
        int count = docs.cardinality();
        long codesLength = data.getFilePointer() - codesOffset;
        meta.writeInt(info.number);
        meta.writeVInt(info.getVectorDimension());
        int flags = (floatsWriter != null ? BinaryFlatVectorsFormat.FLAG_STORE_FLOATS : 0)
                | (options.centred() ? BinaryFlatVectorsFormat.FLAG_CENTRED : 0);
        meta.writeByte((byte) flags);
        meta.writeVLong(codesOffset);
        meta.writeVLong(codesLength);
        meta.writeVInt(count);
        for (float c : centroid) {
            meta.writeInt(Float.floatToIntBits(c));
        }
        for (float s : scale) {
            meta.writeInt(Float.floatToIntBits(s));
        }
        OrdToDocDISIReaderConfiguration.writeStoredMeta(DIRECT_MONOTONIC_BLOCK_SHIFT, meta, data, count, maxDoc, docs);
        if (floatsWriter != null) {
            floatsWriter.finish(meta);
        }
    }

    /** The zeros after a record's code and corrections. */
    private static byte[] padding(int dims) {
        return new byte
                [SignBinarizer.recordBytes(dims)
                        - SignBinarizer.codeBytes(dims)
                        - SignBinarizer.CORRECTIONS * Float.BYTES];
    }

    private static void writeRecord(IndexOutput out, byte[] code, float[] corrections, byte[] padding)
            throws IOException {
        out.writeBytes(code, code.length);
        for (float c : corrections) {
            out.writeInt(Float.floatToIntBits(c));
        }
        out.writeBytes(padding, padding.length);
    }

    @Override
    public void mergeOneField(FieldInfo fieldInfo, MergeState mergeState) throws IOException {
        if (fieldInfo.getVectorEncoding() != VectorEncoding.FLOAT32) {
            rawWriter.mergeOneField(fieldInfo, mergeState);
            return;
        }
        if (options.storeFloats()) {
            writeField(
                    fieldInfo,
                    mergedPass(fieldInfo, mergeState),
                    mergedDocs(fieldInfo, mergeState),
                    state.segmentInfo.maxDoc(),
                    null);
        } else {
            writeMergedCodes(fieldInfo, mergeState, null);
        }
    }

    @Override
    public CloseableRandomVectorScorerSupplier mergeOneFieldToIndex(FieldInfo fieldInfo, MergeState mergeState)
            throws IOException {
        if (fieldInfo.getVectorEncoding() != VectorEncoding.FLOAT32) {
            return rawWriter.mergeOneFieldToIndex(fieldInfo, mergeState);
        }
        // With stored floats, each vector's 4-bit query form builds the graph. Without, that query
        // would come from the decoded code, which knows no more than the code itself: such graphs were
        // no better than those built on Hamming distance between codes, and merged slower. Recall on
        // merged codes-only graphs: bench/run quick codec with
        // -Dbench.synthetic.indexes=float32,codes-only -Dbench.ram.buffer.mb=16 (docs/benchmarks.md).
        List<IndexOutput> temps = new ArrayList<>();
        List<IndexInput> inputs = new ArrayList<>();
        try {
            IndexOutput tempCodes = createTemp(temps, "codes");
            IndexOutput tempQueries = options.storeFloats() ? createTemp(temps, "queries") : null;
            CodeStats stats = options.storeFloats()
                    ? writeField(
                            fieldInfo,
                            mergedPass(fieldInfo, mergeState),
                            mergedDocs(fieldInfo, mergeState),
                            state.segmentInfo.maxDoc(),
                            new GraphInputs(tempCodes, tempQueries))
                    : writeMergedCodes(fieldInfo, mergeState, tempCodes);
            IOUtils.close(temps);
            int count = stats.count();
            BinarizedVectorValues codes = new OffHeapBinarizedVectorValues.Dense(
                    fieldInfo.getVectorDimension(),
                    count,
                    stats.centroid(),
                    stats.scale(),
                    fieldInfo.getVectorSimilarityFunction(),
                    openTemp(inputs, tempCodes));
            RandomVectorScorerSupplier supplier = tempQueries == null
                    ? vectorsScorer.getRandomVectorScorerSupplier(fieldInfo.getVectorSimilarityFunction(), codes)
                    : new MergeGraphScorerSupplier(codes, openTemp(inputs, tempQueries));
            return new TempFileScorerSupplier(supplier, count, inputs, tempNames(temps));
        } catch (Throwable t) {
            IOUtils.closeWhileHandlingException(temps);
            IOUtils.closeWhileHandlingException(inputs);
            IOUtils.deleteFilesIgnoringExceptions(state.directory, tempNames(temps));
            throw t;
        }
    }

    private IndexOutput createTemp(List<IndexOutput> temps, String kind) throws IOException {
        IndexOutput temp = state.directory.createTempOutput(data.getName(), kind, state.context);
        temps.add(temp);
        return temp;
    }

    private IndexInput openTemp(List<IndexInput> inputs, IndexOutput written) throws IOException {
        IndexInput input = state.directory.openInput(written.getName(), state.context);
        inputs.add(input);
        return input;
    }

    private static List<String> tempNames(List<IndexOutput> temps) {
        return temps.stream().map(IndexOutput::getName).toList();
    }

    private static VectorPass mergedPass(FieldInfo fieldInfo, MergeState mergeState) {
        return sink -> {
            FloatVectorValues values =
                    KnnVectorsWriter.MergedVectorValues.mergeFloatVectorValues(fieldInfo, mergeState);
            KnnVectorValues.DocIndexIterator it = values.iterator();
            for (int doc = it.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; doc = it.nextDoc()) {
                sink.accept(values.vectorValue(it.index()));
            }
        };
    }

    private static DocsWithFieldSet mergedDocs(FieldInfo fieldInfo, MergeState mergeState) throws IOException {
        DocsWithFieldSet docs = new DocsWithFieldSet();
        KnnVectorValues.DocIndexIterator it = KnnVectorsWriter.MergedVectorValues.mergeFloatVectorValues(
                        fieldInfo, mergeState)
                .iterator();
        for (int doc = it.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; doc = it.nextDoc()) {
            docs.add(doc);
        }
        return docs;
    }

    @Override
    public void finish() throws IOException {
        if (finished) {
            throw new IllegalStateException("already finished");
        }
        finished = true;
        rawWriter.finish();
        meta.writeInt(BinaryFlatVectorsFormat.END_OF_FIELDS);
        CodecUtil.writeFooter(meta);
        CodecUtil.writeFooter(data);
        CodecUtil.writeFooter(floats);
    }

    @Override
    public long ramBytesUsed() {
        long total = SHALLOW_SIZE + rawWriter.ramBytesUsed();
        for (FloatField field : floatFields) {
            total += field.vectors().ramBytesUsed();
        }
        return total;
    }

    @Override
    public void close() throws IOException {
        IOUtils.close(meta, data, floats, rawWriter);
    }

    /** The merged graph's scorers, over temporary files it deletes when the graph is built. */
    private final class TempFileScorerSupplier implements CloseableRandomVectorScorerSupplier {
        private final RandomVectorScorerSupplier delegate;
        private final int count;
        private final List<IndexInput> inputs;
        private final List<String> fileNames;

        TempFileScorerSupplier(
                RandomVectorScorerSupplier delegate, int count, List<IndexInput> inputs, List<String> fileNames) {
            this.delegate = delegate;
            this.count = count;
            this.inputs = inputs;
            this.fileNames = fileNames;
        }

        @Override
        public UpdateableRandomVectorScorer scorer() throws IOException {
            return delegate.scorer();
        }

        @Override
        public RandomVectorScorerSupplier copy() throws IOException {
            return delegate.copy();
        }

        @Override
        public int totalVectorCount() {
            return count;
        }

        @Override
        public void close() throws IOException {
            try {
                IOUtils.close(inputs);
            } finally {
                IOUtils.deleteFilesIgnoringExceptions(state.directory, fileNames);
            }
        }
    }
}
