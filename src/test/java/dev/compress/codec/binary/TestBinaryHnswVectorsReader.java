package dev.compress.codec.binary;

import java.io.IOException;
import java.util.Random;
import org.apache.lucene.codecs.KnnVectorsReader;
import org.apache.lucene.codecs.lucene99.Lucene99HnswVectorsReader;
import org.apache.lucene.codecs.perfield.PerFieldKnnVectorsFormat;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.KnnFloatVectorField;
import org.apache.lucene.document.StringField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.FieldInfo;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.NoMergePolicy;
import org.apache.lucene.index.SegmentReadState;
import org.apache.lucene.index.SegmentReader;
import org.apache.lucene.index.Term;
import org.apache.lucene.index.TieredMergePolicy;
import org.apache.lucene.index.VectorSimilarityFunction;
import org.apache.lucene.search.AcceptDocs;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.KnnCollector;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.search.TopKnnCollector;
import org.apache.lucene.search.knn.KnnSearchStrategy;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.IOContext;
import org.apache.lucene.tests.util.LuceneTestCase;
import org.apache.lucene.tests.util.TestUtil;
import org.apache.lucene.util.FixedBitSet;
import org.apache.lucene.util.VectorUtil;

/**
 * The dense walk is Lucene's walk: on the same segment, every search through {@link
 * BinaryHnswVectorsReader} finds the same documents with the same scores and visits as Lucene's
 * own reader, with and without deleted documents; and it is taken exactly where Lucene's plain
 * searcher would run.
 */
public class TestBinaryHnswVectorsReader extends LuceneTestCase {

    private static final String FIELD = "v";

    public void testSearchesEqualLucenesReader() throws IOException {
        Random random = random();
        int dims = 8 + random.nextInt(56);
        int docs = 2000 + random.nextInt(2000);
        try (Directory dir = newFSDirectory(createTempDir())) {
            // Plain files, so that Lucene's reader can open the segment's vector files beside ours.
            TieredMergePolicy mergePolicy = new TieredMergePolicy();
            mergePolicy.setNoCFSRatio(0);
            IndexWriterConfig config = new IndexWriterConfig()
                    .setCodec(TestUtil.alwaysKnnVectorsFormat(new BinaryHnswVectorsFormat()))
                    .setUseCompoundFile(false)
                    .setMergePolicy(mergePolicy);
            try (IndexWriter writer = new IndexWriter(dir, config)) {
                for (int i = 0; i < docs; i++) {
                    Document doc = new Document();
                    doc.add(new StringField("id", Integer.toString(i), Field.Store.NO));
                    doc.add(new KnnFloatVectorField(
                            FIELD, unitVector(random, dims), VectorSimilarityFunction.DOT_PRODUCT));
                    writer.addDocument(doc);
                }
                writer.forceMerge(1);
                writer.getConfig().setMergePolicy(NoMergePolicy.INSTANCE);
                writer.commit();
                assertSearchesEqual(dir, random, dims, false);
                for (int i = 0; i < docs; i += 1 + random.nextInt(10)) {
                    writer.deleteDocuments(new Term("id", Integer.toString(i)));
                }
                writer.commit();
                assertSearchesEqual(dir, random, dims, true);
            }
        }
    }

    public void testDenseWalkWhereLuceneWalksPlainly() throws IOException {
        AcceptDocs all = AcceptDocs.fromLiveDocs(null, 1_000_000);
        assertTrue(BinaryHnswVectorsReader.denseWalk(new TopKnnCollector(160, Integer.MAX_VALUE), all, 1_000_000));
        assertTrue(BinaryHnswVectorsReader.denseWalk(new TopKnnCollector(10, Integer.MAX_VALUE), all, 100_000));
        // Lucene scores small graphs exhaustively: k as large as the graph, or as its expected visits.
        assertFalse(BinaryHnswVectorsReader.denseWalk(new TopKnnCollector(10, Integer.MAX_VALUE), all, 10));
        assertFalse(BinaryHnswVectorsReader.denseWalk(new TopKnnCollector(100, Integer.MAX_VALUE), all, 400));
        // A graph far larger than the walk keeps Lucene's sparse visited set.
        assertFalse(BinaryHnswVectorsReader.denseWalk(new TopKnnCollector(1, Integer.MAX_VALUE), all, 1_000_000));
        // Seeded walks and restrictive filters under a filtered-search strategy stay Lucene's.
        KnnSearchStrategy.Seeded seeded =
                new KnnSearchStrategy.Seeded(DocIdSetIterator.all(3), 3, KnnSearchStrategy.Hnsw.DEFAULT);
        assertFalse(
                BinaryHnswVectorsReader.denseWalk(new TopKnnCollector(160, Integer.MAX_VALUE, seeded), all, 1_000_000));
        FixedBitSet tenth = new FixedBitSet(1_000_000);
        for (int doc = 0; doc < tenth.length(); doc += 10) {
            tenth.set(doc);
        }
        AcceptDocs filter = AcceptDocs.fromLiveDocs(tenth, tenth.length());
        KnnSearchStrategy.Hnsw filtered = new KnnSearchStrategy.Hnsw(60);
        assertFalse(BinaryHnswVectorsReader.denseWalk(
                new TopKnnCollector(160, Integer.MAX_VALUE, filtered), filter, 1_000_000));
        assertTrue(BinaryHnswVectorsReader.denseWalk(new TopKnnCollector(160, Integer.MAX_VALUE), filter, 1_000_000));
    }

    private static void assertSearchesEqual(Directory dir, Random random, int dims, boolean deletions)
            throws IOException {
        try (DirectoryReader reader = DirectoryReader.open(dir)) {
            assertEquals(1, reader.leaves().size());
            SegmentReader segment = (SegmentReader) reader.leaves().get(0).reader();
            assertEquals(deletions, segment.getLiveDocs() != null);
            KnnVectorsReader fieldReader =
                    ((PerFieldKnnVectorsFormat.FieldsReader) segment.getVectorReader()).getFieldReader(FIELD);
            BinaryHnswVectorsReader ours = (BinaryHnswVectorsReader) fieldReader;
            FieldInfo info = segment.getFieldInfos().fieldInfo(FIELD);
            String suffix = info.getAttribute(PerFieldKnnVectorsFormat.PER_FIELD_FORMAT_KEY) + "_"
                    + info.getAttribute(PerFieldKnnVectorsFormat.PER_FIELD_SUFFIX_KEY);
            SegmentReadState state = new SegmentReadState(
                    dir, segment.getSegmentInfo().info, segment.getFieldInfos(), IOContext.DEFAULT, suffix);
            try (Lucene99HnswVectorsReader lucene = new Lucene99HnswVectorsReader(
                    state, new BinaryFlatVectorsFormat(BinaryCodeOptions.DEFAULT).fieldsReader(state))) {
                int size = ours.getGraph(FIELD).size();
                for (int query = 0; query < 20; query++) {
                    float[] target = unitVector(random, dims);
                    int k = 1 + random.nextInt(60);
                    AcceptDocs acceptDocs = AcceptDocs.fromLiveDocs(segment.getLiveDocs(), segment.maxDoc());
                    assertTrue(
                            "k " + k + " of " + size,
                            BinaryHnswVectorsReader.denseWalk(
                                    new TopKnnCollector(k, Integer.MAX_VALUE), acceptDocs, size));
                    KnnCollector expected = new TopKnnCollector(k, Integer.MAX_VALUE);
                    KnnCollector actual = new TopKnnCollector(k, Integer.MAX_VALUE);
                    lucene.search(
                            FIELD, target, expected, AcceptDocs.fromLiveDocs(segment.getLiveDocs(), segment.maxDoc()));
                    ours.search(FIELD, target, actual, acceptDocs);
                    assertEquals(expected.visitedCount(), actual.visitedCount());
                    assertSameHits(expected.topDocs(), actual.topDocs());
                    for (ScoreDoc hit : actual.topDocs().scoreDocs) {
                        assertTrue(
                                "deleted doc " + hit.doc + " found",
                                segment.getLiveDocs() == null
                                        || segment.getLiveDocs().get(hit.doc));
                    }
                }
            }
        }
    }

    private static void assertSameHits(TopDocs expected, TopDocs actual) {
        assertEquals(expected.scoreDocs.length, actual.scoreDocs.length);
        for (int i = 0; i < expected.scoreDocs.length; i++) {
            assertEquals(expected.scoreDocs[i].doc, actual.scoreDocs[i].doc);
            assertEquals(expected.scoreDocs[i].score, actual.scoreDocs[i].score, 0f);
        }
    }

    private static float[] unitVector(Random random, int dims) {
        float[] v = new float[dims];
        for (int i = 0; i < dims; i++) {
            v[i] = (float) random.nextGaussian();
        }
        return VectorUtil.l2normalize(v);
    }
}
