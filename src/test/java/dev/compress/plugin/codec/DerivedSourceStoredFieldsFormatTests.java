package dev.compress.plugin.codec;

import java.io.Closeable;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import org.apache.lucene.codecs.Codec;
import org.apache.lucene.codecs.FilterCodec;
import org.apache.lucene.codecs.StoredFieldsFormat;
import org.apache.lucene.codecs.StoredFieldsReader;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.DocumentStoredFieldVisitor;
import org.apache.lucene.document.KnnFloatVectorField;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.document.StringField;
import org.apache.lucene.index.CodecReader;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.FilterCodecReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.MergePolicy;
import org.apache.lucene.index.OneMergeWrappingMergePolicy;
import org.apache.lucene.index.SegmentCommitInfo;
import org.apache.lucene.index.SegmentInfos;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.index.VectorSimilarityFunction;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.IOContext;
import org.apache.lucene.tests.index.BaseStoredFieldsFormatTestCase;
import org.apache.lucene.tests.util.TestUtil;
import org.apache.lucene.util.BytesRef;
import org.opensearch.common.xcontent.XContentHelper;
import org.opensearch.core.common.bytes.BytesArray;

/**
 * Lucene's stored-fields format suite on {@link DerivedSourceStoredFieldsFormat}, and the format's own
 * contract: vectors leave {@code _source} on disk and come back on every read, through the codec that
 * wrote them and through {@link DerivedSourceCodec} found by name, across flushes, merges and deletes.
 */
public class DerivedSourceStoredFieldsFormatTests extends BaseStoredFieldsFormatTestCase {

    private static final String SOURCE = DerivedSourceStoredFieldsFormat.SOURCE_FIELD;
    private static final int DIM = 16;

    @Override
    protected Codec getCodec() {
        return stripping(() -> Set.of("v", "obj.w"));
    }

    /** The codec the plugin writes with, stripping {@code fields}, recorded under {@link DerivedSourceCodec#NAME}. */
    private static Codec stripping(Supplier<Set<String>> fields) {
        Codec lucene = Codec.forName(DerivedSourceCodec.DELEGATE);
        StoredFieldsFormat format =
                new DerivedSourceStoredFieldsFormat(lucene.storedFieldsFormat(), lucene.knnVectorsFormat(), fields);
        return new FilterCodec(DerivedSourceCodec.NAME, lucene) {
            @Override
            public StoredFieldsFormat storedFieldsFormat() {
                return format;
            }
        };
    }

    public void testVectorsLeaveTheStoredSourceAndComeBack() throws IOException {
        Map<String, Map<String, Object>> expected = new HashMap<>();
        try (Directory dir = newDirectory()) {
            IndexWriterConfig config = newIndexWriterConfig().setCodec(getCodec());
            try (IndexWriter writer = new IndexWriter(dir, config)) {
                int docs = atLeast(200);
                for (int i = 0; i < docs; i++) {
                    addDocument(writer, "d" + i, expected);
                    if (rarely()) {
                        writer.commit();
                    }
                }
                writer.deleteDocuments(new org.apache.lucene.index.Term("id", "d3"));
                expected.remove("d3");
                try (DirectoryReader nrt = DirectoryReader.open(writer)) {
                    assertSources(nrt, expected);
                }
                writer.commit();
                try (DirectoryReader byName = DirectoryReader.open(dir)) {
                    assertSources(byName, expected);
                }
                writer.forceMerge(1);
                writer.commit();
            }
            try (DirectoryReader merged = DirectoryReader.open(dir)) {
                assertEquals(1, merged.leaves().size());
                assertSources(merged, expected);
            }
            SegmentInfos infos = SegmentInfos.readLatestCommit(dir);
            for (SegmentCommitInfo info : infos) {
                assertEquals(DerivedSourceCodec.NAME, info.info.getCodec().getName());
                assertEquals("obj.w\nv", info.info.getAttribute(DerivedSourceStoredFieldsFormat.FIELDS_ATTRIBUTE));
            }
            TestUtil.checkIndex(dir);
        }
    }

    /**
     * A merge whose segments come wrapped (as OpenSearch's pruning of {@code _recovery_source} wraps
     * them) reads each source back whole and strips it again: the merged segment holds no vector.
     */
    public void testWrappedMergesStripAgain() throws IOException {
        Map<String, Map<String, Object>> expected = new HashMap<>();
        try (Directory dir = newDirectory()) {
            IndexWriterConfig config = newIndexWriterConfig()
                    .setCodec(getCodec())
                    .setMergePolicy(new OneMergeWrappingMergePolicy(
                            newLogMergePolicy(), merge -> new MergePolicy.OneMerge(merge.segments) {
                                @Override
                                public CodecReader wrapForMerge(CodecReader reader) {
                                    return new PassThroughCodecReader(reader);
                                }
                            }));
            try (IndexWriter writer = new IndexWriter(dir, config)) {
                for (int i = 0; i < 60; i++) {
                    addDocument(writer, "d" + i, expected);
                    if (i % 20 == 19) {
                        writer.commit();
                    }
                }
                writer.forceMerge(1);
                writer.commit();
            }
            try (DirectoryReader merged = DirectoryReader.open(dir)) {
                assertEquals(1, merged.leaves().size());
                assertSources(merged, expected);
            }
            assertRawSourceHoldsPlaceholders(dir);
        }
    }

    /** Stands for any wrapper a merge policy puts around a segment's stored fields. */
    private static final class PassThroughCodecReader extends FilterCodecReader {
        PassThroughCodecReader(CodecReader in) {
            super(in);
        }

        @Override
        public StoredFieldsReader getFieldsReader() {
            return new PassThroughStoredFieldsReader(in.getFieldsReader());
        }

        @Override
        public CacheHelper getCoreCacheHelper() {
            return null;
        }

        @Override
        public CacheHelper getReaderCacheHelper() {
            return null;
        }
    }

    private static final class PassThroughStoredFieldsReader extends StoredFieldsReader {
        private final StoredFieldsReader in;

        PassThroughStoredFieldsReader(StoredFieldsReader in) {
            this.in = in;
        }

        @Override
        public void document(int docID, org.apache.lucene.index.StoredFieldVisitor visitor) throws IOException {
            in.document(docID, visitor);
        }

        @Override
        public StoredFieldsReader clone() {
            return new PassThroughStoredFieldsReader(in.clone());
        }

        @Override
        public void checkIntegrity() throws IOException {
            in.checkIntegrity();
        }

        @Override
        public void close() throws IOException {
            in.close();
        }
    }

    /** The raw stored bytes hold placeholders, not vectors: the point of the format. */
    public void testStoredBytesHoldNoVectors() throws IOException {
        try (Directory dir = newDirectory()) {
            try (IndexWriter writer =
                    new IndexWriter(dir, newIndexWriterConfig().setCodec(getCodec()))) {
                for (int i = 0; i < 5; i++) {
                    addDocument(writer, "d" + i, new HashMap<>());
                }
            }
            assertRawSourceHoldsPlaceholders(dir);
        }
    }

    /** Reads every segment's stored sources with Lucene's own reader: each vector is a placeholder. */
    private static void assertRawSourceHoldsPlaceholders(Directory dir) throws IOException {
        Codec lucene = Codec.forName(DerivedSourceCodec.DELEGATE);
        for (SegmentCommitInfo segment : SegmentInfos.readLatestCommit(dir)) {
            Directory files = segment.info.getUseCompoundFile()
                    ? lucene.compoundFormat().getCompoundReader(dir, segment.info)
                    : dir;
            var fieldInfos = lucene.fieldInfosFormat().read(files, segment.info, "", IOContext.DEFAULT);
            try (var raw = lucene.storedFieldsFormat()
                            .fieldsReader(files, segment.info, fieldInfos, IOContext.DEFAULT);
                    Closeable compound = files == dir ? null : files) {
                for (int doc = 0; doc < segment.info.maxDoc(); doc++) {
                    DocumentStoredFieldVisitor visitor = new DocumentStoredFieldVisitor(SOURCE);
                    raw.document(doc, visitor);
                    Map<String, Object> source = map(visitor.getDocument().getBinaryValue(SOURCE));
                    if (source.containsKey("v")) {
                        assertEquals(SourceVectors.PLACEHOLDER, source.get("v"));
                    }
                    assertEquals(SourceVectors.PLACEHOLDER, ((Map<?, ?>) source.get("obj")).get("w"));
                }
            }
        }
    }

    /** A source without the vector (filtered out by the user, or never sent) reads back without it. */
    private void addDocument(IndexWriter writer, String id, Map<String, Map<String, Object>> expected)
            throws IOException {
        Document doc = new Document();
        doc.add(new StringField("id", id, org.apache.lucene.document.Field.Store.YES));
        float[] v = randomVector();
        float[] w = randomVector();
        boolean hasV = random().nextInt(10) > 0;
        boolean sourceHasV = hasV && random().nextInt(10) > 0;
        StringBuilder json = new StringBuilder("{\"id\":\"").append(id).append('"');
        if (hasV) {
            doc.add(new KnnFloatVectorField("v", v, VectorSimilarityFunction.COSINE));
            if (sourceHasV) {
                json.append(",\"v\":").append(array(v));
            }
        }
        doc.add(new KnnFloatVectorField("obj.w", w, VectorSimilarityFunction.DOT_PRODUCT));
        json.append(",\"obj\":{\"w\":")
                .append(array(w))
                .append(",\"n\":")
                .append(id.length())
                .append("}}");
        doc.add(new StoredField(SOURCE, new BytesRef(json.toString())));
        writer.addDocument(doc);
        expected.put(id, map(new BytesRef(json.toString())));
    }

    /** Reads every live document forward, then again in a random order (the reader moves its vector iterators back). */
    private static void assertSources(DirectoryReader reader, Map<String, Map<String, Object>> expected)
            throws IOException {
        int seen = 0;
        for (LeafReaderContext leaf : reader.leaves()) {
            StoredFields stored = leaf.reader().storedFields();
            List<Integer> live = new ArrayList<>();
            for (int doc = 0; doc < leaf.reader().maxDoc(); doc++) {
                if (leaf.reader().getLiveDocs() == null
                        || leaf.reader().getLiveDocs().get(doc)) {
                    live.add(doc);
                }
            }
            List<Integer> shuffled = new ArrayList<>(live);
            Collections.shuffle(shuffled, random());
            for (List<Integer> order : List.of(live, shuffled)) {
                for (int doc : order) {
                    Document d = stored.document(doc);
                    assertEquals(d.get("id"), expected.get(d.get("id")), map(d.getBinaryValue(SOURCE)));
                }
            }
            seen += live.size();
        }
        assertEquals(expected.size(), seen);
    }

    private static float[] randomVector() {
        float[] v = new float[DIM];
        for (int i = 0; i < DIM; i++) {
            v[i] = random().nextFloat() * 2 - 1;
        }
        v[0] += 2; // never all zeros, which cosine refuses
        return v;
    }

    private static String array(float[] v) {
        List<String> parts = new ArrayList<>();
        for (float f : v) {
            parts.add(Float.toString(f));
        }
        return "[" + String.join(",", parts) + "]";
    }

    private static Map<String, Object> map(BytesRef bytes) {
        return XContentHelper.convertToMap(new BytesArray(bytes), true).v2();
    }
}
