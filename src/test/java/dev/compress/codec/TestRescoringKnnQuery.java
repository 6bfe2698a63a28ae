package dev.compress.codec;

import dev.compress.codec.binary.BinaryCodeOptions;
import dev.compress.codec.binary.BinaryHnswVectorsFormat;
import dev.compress.codec.floats.FloatHnswVectorsFormat;
import dev.compress.codec.search.RescoringKnnQuery;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.apache.lucene.codecs.KnnVectorsFormat;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.IntPoint;
import org.apache.lucene.document.KnnFloatVectorField;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.document.StringField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.NoMergePolicy;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.index.Term;
import org.apache.lucene.index.VectorSimilarityFunction;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TermInSetQuery;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.store.Directory;
import org.apache.lucene.tests.util.LuceneTestCase;
import org.apache.lucene.tests.util.TestUtil;
import org.apache.lucene.util.BytesRef;

/**
 * {@link RescoringKnnQuery} against brute-force exact search over several segments, with deleted
 * documents and filters, before and after force-merge.
 */
public class TestRescoringKnnQuery extends LuceneTestCase {

    private static final String FIELD = "v";
    private static final int DIMS = 256;
    private static final int DOCS = 3000;
    private static final int K = 10;
    private static final int LATENT = 16;
    private static final VectorSimilarityFunction SIMILARITY = VectorSimilarityFunction.DOT_PRODUCT;

    private LowRankUnitVectors generator;

    @Override
    public void setUp() throws Exception {
        super.setUp();
        generator = new LowRankUnitVectors(random(), DIMS, LATENT);
    }

    private float[][] vectors(int n) {
        float[][] vectors = new float[n][];
        for (int d = 0; d < n; d++) {
            vectors[d] = generator.next(random());
        }
        return vectors;
    }

    private record Corpus(float[][] vectors, Set<Integer> deleted) {}

    /** Indexes DOCS documents in several segments and deletes about 10% of them. */
    private Corpus index(Directory dir, KnnVectorsFormat format, Random random) throws IOException {
        float[][] vectors = vectors(DOCS);
        IndexWriterConfig config = new IndexWriterConfig()
                .setCodec(TestUtil.alwaysKnnVectorsFormat(format))
                .setMaxBufferedDocs(400 + random.nextInt(400))
                .setMergePolicy(NoMergePolicy.INSTANCE);
        Set<Integer> deleted = new HashSet<>();
        try (IndexWriter writer = new IndexWriter(dir, config)) {
            for (int id = 0; id < DOCS; id++) {
                Document doc = new Document();
                doc.add(new StringField("id", Integer.toString(id), Field.Store.NO));
                doc.add(new StoredField("sid", id));
                doc.add(new IntPoint("mod", id % 7));
                // about 3% of the documents have no vector
                if (random.nextInt(33) != 0) {
                    doc.add(new KnnFloatVectorField(FIELD, vectors[id], SIMILARITY));
                } else {
                    vectors[id] = null;
                }
                writer.addDocument(doc);
            }
            for (int i = 0; i < DOCS / 10; i++) {
                int id = random.nextInt(DOCS);
                deleted.add(id);
                writer.deleteDocuments(new Term("id", Integer.toString(id)));
            }
            writer.commit();
        }
        return new Corpus(vectors, deleted);
    }

    private static void forceMerge(Directory dir, KnnVectorsFormat format) throws IOException {
        try (IndexWriter writer =
                new IndexWriter(dir, new IndexWriterConfig().setCodec(TestUtil.alwaysKnnVectorsFormat(format)))) {
            writer.forceMerge(1);
        }
    }

    /** Ids of the exact top k among live documents with a vector that pass {@code allowed}. */
    private static int[] exactTopK(Corpus corpus, float[] query, java.util.function.IntPredicate allowed) {
        List<Integer> ids = new ArrayList<>();
        for (int id = 0; id < DOCS; id++) {
            if (corpus.vectors()[id] != null && !corpus.deleted().contains(id) && allowed.test(id)) {
                ids.add(id);
            }
        }
        ids.sort((a, b) -> Float.compare(
                SIMILARITY.compare(query, corpus.vectors()[b]), SIMILARITY.compare(query, corpus.vectors()[a])));
        return ids.subList(0, Math.min(K, ids.size())).stream()
                .mapToInt(Integer::intValue)
                .toArray();
    }

    private static int[] ids(IndexSearcher searcher, TopDocs hits) throws IOException {
        StoredFields stored = searcher.storedFields();
        int[] ids = new int[hits.scoreDocs.length];
        for (int i = 0; i < ids.length; i++) {
            ids[i] = stored.document(hits.scoreDocs[i].doc)
                    .getField("sid")
                    .numericValue()
                    .intValue();
        }
        return ids;
    }

    private static double overlap(int[] expected, int[] actual) {
        Set<Integer> truth = new HashSet<>();
        for (int id : expected) {
            truth.add(id);
        }
        return Arrays.stream(actual).filter(truth::contains).count() / (double) expected.length;
    }

    /**
     * Checks one searcher: rescored results are live, pass the filter, carry exact scores, and
     * reach {@code minRecall} on average; without rescoring, scores stay in [0, 1].
     */
    private void checkSearch(IndexSearcher searcher, Corpus corpus, Random random, double minRecall, boolean binary)
            throws IOException {
        double recall = 0, filteredRecall = 0, unrescoredRecall = 0;
        int queries = 30;
        Query filter = IntPoint.newSetQuery("mod", 0, 1, 2, 3);
        for (int q = 0; q < queries; q++) {
            float[] query = vectors(1)[0];

            TopDocs hits = searcher.search(new RescoringKnnQuery(FIELD, query, K, 5f, null, true), K);
            int[] found = ids(searcher, hits);
            assertEquals(K, found.length);
            for (int i = 0; i < found.length; i++) {
                assertFalse("deleted doc returned", corpus.deleted().contains(found[i]));
                assertEquals(SIMILARITY.compare(query, corpus.vectors()[found[i]]), hits.scoreDocs[i].score, 1e-5f);
            }
            recall += overlap(exactTopK(corpus, query, id -> true), found);

            TopDocs filtered = searcher.search(new RescoringKnnQuery(FIELD, query, K, 5f, filter, true), K);
            int[] filteredIds = ids(searcher, filtered);
            for (int id : filteredIds) {
                assertTrue("filter not honoured", id % 7 <= 3);
                assertFalse(corpus.deleted().contains(id));
            }
            filteredRecall += overlap(exactTopK(corpus, query, id -> id % 7 <= 3), filteredIds);

            TopDocs unrescored = searcher.search(new RescoringKnnQuery(FIELD, query, K, 5f, null, false), K);
            for (ScoreDoc hit : unrescored.scoreDocs) {
                assertTrue(hit.score >= 0f && hit.score <= 1f);
            }
            unrescoredRecall += overlap(exactTopK(corpus, query, id -> true), ids(searcher, unrescored));

            // A filter matching fewer documents than there are candidates: every allowed document is
            // a candidate, so the rescored top k must be exactly the brute-force top k.
            Set<Integer> allowed = new HashSet<>();
            List<BytesRef> terms = new ArrayList<>();
            for (int i = 0; i < 30; i++) {
                int id = random.nextInt(DOCS);
                allowed.add(id);
                terms.add(new BytesRef(Integer.toString(id)));
            }
            TopDocs few = searcher.search(
                    new RescoringKnnQuery(FIELD, query, K, 5f, new TermInSetQuery("id", terms), true), K);
            assertArrayEquals(exactTopK(corpus, query, allowed::contains), ids(searcher, few));
        }
        recall /= queries;
        filteredRecall /= queries;
        unrescoredRecall /= queries;
        System.out.printf(
                java.util.Locale.ROOT,
                "recall %.3f filtered %.3f unrescored %.3f%n",
                recall,
                filteredRecall,
                unrescoredRecall);
        assertTrue("recall " + recall, recall >= minRecall);
        assertTrue("filtered recall " + filteredRecall, filteredRecall >= minRecall);
        if (binary) {
            assertTrue(
                    "rescoring should beat the unrescored order: " + recall + " vs " + unrescoredRecall,
                    recall > unrescoredRecall);
        }
    }

    private void checkFormat(KnnVectorsFormat format, double minRecall, boolean binary) throws IOException {
        Random random = random();
        try (Directory dir = newDirectory()) {
            Corpus corpus = index(dir, format, random);
            try (DirectoryReader reader = DirectoryReader.open(dir)) {
                assertTrue("expected several segments", reader.leaves().size() > 1);
                checkSearch(new IndexSearcher(reader), corpus, random, minRecall, binary);
            }
            forceMerge(dir, format);
            try (DirectoryReader reader = DirectoryReader.open(dir)) {
                assertEquals(1, reader.leaves().size());
                checkSearch(new IndexSearcher(reader), corpus, random, minRecall, binary);
            }
        }
    }

    public void testBinaryWithStoredFloats() throws IOException {
        checkFormat(
                new BinaryHnswVectorsFormat(
                        HnswParameters.DEFAULT, new BinaryCodeOptions(true, random().nextBoolean())),
                0.93,
                true);
    }

    public void testFloat() throws IOException {
        checkFormat(new FloatHnswVectorsFormat(), 0.95, false);
    }
}
