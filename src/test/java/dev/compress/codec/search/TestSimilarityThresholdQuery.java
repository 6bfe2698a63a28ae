package dev.compress.codec.search;

import dev.compress.codec.HnswParameters;
import dev.compress.codec.binary.BinaryCodeOptions;
import dev.compress.codec.binary.BinaryHnswVectorsFormat;
import dev.compress.codec.floats.FloatHnswVectorsFormat;
import java.io.IOException;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
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
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.NoMergePolicy;
import org.apache.lucene.index.Term;
import org.apache.lucene.index.VectorSimilarityFunction;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.BoostQuery;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.Explanation;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.store.Directory;
import org.apache.lucene.tests.util.LuceneTestCase;
import org.apache.lucene.tests.util.TestUtil;
import org.apache.lucene.util.Bits;
import org.apache.lucene.util.VectorUtil;

/**
 * {@link SimilarityThresholdQuery} against brute force for every similarity, on the float format and
 * the binary format with stored floats, over several segments with documents without a vector,
 * deleted documents, a filter, a boost and explanations: exactly the live documents scoring at least
 * the threshold match, with their exact scores.
 */
public class TestSimilarityThresholdQuery extends LuceneTestCase {

    private static final String FIELD = "v";
    private static final int DIMS = 24;
    private static final int DOCS = 600;

    private record Corpus(float[][] vectors, Set<Integer> deleted) {}

    private static Corpus index(
            Directory dir, KnnVectorsFormat format, VectorSimilarityFunction similarity, Random random)
            throws IOException {
        float[][] vectors = new float[DOCS][];
        IndexWriterConfig config = new IndexWriterConfig()
                .setCodec(TestUtil.alwaysKnnVectorsFormat(format))
                .setMaxBufferedDocs(100 + random.nextInt(150))
                .setMergePolicy(NoMergePolicy.INSTANCE);
        Set<Integer> deleted = new HashSet<>();
        try (IndexWriter writer = new IndexWriter(dir, config)) {
            for (int id = 0; id < DOCS; id++) {
                Document doc = new Document();
                doc.add(new StringField("id", Integer.toString(id), Field.Store.NO));
                doc.add(new StoredField("sid", id));
                doc.add(new IntPoint("mod", id % 3));
                if (random.nextInt(20) != 0) {
                    vectors[id] = new float[DIMS];
                    for (int j = 0; j < DIMS; j++) {
                        vectors[id][j] = (float) random.nextGaussian() * (0.2f + random.nextFloat());
                    }
                    if (similarity == VectorSimilarityFunction.DOT_PRODUCT) {
                        vectors[id] = VectorUtil.l2normalize(vectors[id]);
                    }
                    doc.add(new KnnFloatVectorField(FIELD, vectors[id], similarity));
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

    /** Live documents with a vector passing {@code mod == 1} when filtered, scoring at least {@code minScore}. */
    private static Map<Integer, Float> expected(
            Corpus corpus, VectorSimilarityFunction similarity, float[] q, float minScore, boolean filtered) {
        Map<Integer, Float> within = new HashMap<>();
        for (int id = 0; id < DOCS; id++) {
            if (corpus.vectors()[id] == null || corpus.deleted().contains(id) || (filtered && id % 3 != 1)) {
                continue;
            }
            float score = similarity.compare(q, corpus.vectors()[id]);
            if (score >= minScore) {
                within.put(id, score);
            }
        }
        return within;
    }

    private static void check(KnnVectorsFormat format, VectorSimilarityFunction similarity) throws IOException {
        Random random = new Random(random().nextLong());
        try (Directory dir = newDirectory()) {
            Corpus corpus = index(dir, format, similarity, random);
            try (DirectoryReader reader = DirectoryReader.open(dir)) {
                assertTrue(reader.leaves().size() > 1);
                IndexSearcher searcher = newSearcher(reader);
                for (int round = 0; round < 4; round++) {
                    float[] q = corpus.vectors()[random.nextInt(DOCS)];
                    if (q == null) {
                        continue;
                    }
                    // a threshold that some documents pass and most do not
                    float minScore = similarity.compare(q, q) * (0.3f + 0.4f * random.nextFloat());
                    boolean filtered = round % 2 == 1;
                    Query query = new SimilarityThresholdQuery(FIELD, q, minScore);
                    if (filtered) {
                        query = new BooleanQuery.Builder()
                                .add(query, BooleanClause.Occur.MUST)
                                .add(IntPoint.newExactQuery("mod", 1), BooleanClause.Occur.FILTER)
                                .build();
                    }
                    Map<Integer, Float> expected = expected(corpus, similarity, q, minScore, filtered);
                    TopDocs hits = searcher.search(new BoostQuery(query, 2f), DOCS);
                    Map<Integer, Float> actual = new HashMap<>();
                    for (ScoreDoc hit : hits.scoreDocs) {
                        int id = reader.storedFields()
                                .document(hit.doc)
                                .getField("sid")
                                .numericValue()
                                .intValue();
                        actual.put(id, hit.score / 2);
                    }
                    assertEquals(similarity + " " + format, expected.keySet(), actual.keySet());
                    for (Map.Entry<Integer, Float> e : expected.entrySet()) {
                        assertEquals(e.getValue(), actual.get(e.getKey()), 1e-5f * Math.max(1, e.getValue()));
                    }
                    if (hits.scoreDocs.length > 0) {
                        Explanation match = searcher.explain(query, hits.scoreDocs[0].doc);
                        assertTrue(match.toString(), match.isMatch());
                    }
                }
                assertNoMatchExplained(searcher, reader);
            }
        }
    }

    /** A threshold no document reaches: explained as a miss with the document's score. */
    private static void assertNoMatchExplained(IndexSearcher searcher, DirectoryReader reader) throws IOException {
        float[] q = new float[DIMS];
        q[0] = 1;
        Query unreachable = new SimilarityThresholdQuery(FIELD, q, Float.MAX_VALUE);
        assertEquals(0, searcher.count(unreachable));
        for (LeafReaderContext leaf : reader.leaves()) {
            DocIdSetIterator withVector =
                    leaf.reader().getFloatVectorValues(FIELD).iterator();
            Bits live = leaf.reader().getLiveDocs();
            for (int doc = withVector.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; doc = withVector.nextDoc()) {
                if (live == null || live.get(doc)) {
                    Explanation miss = searcher.explain(unreachable, leaf.docBase + doc);
                    assertFalse(miss.isMatch());
                    assertTrue(miss.toString(), miss.getDescription().contains("< min_score"));
                    return;
                }
            }
        }
        fail("no live document with a vector");
    }

    public void testFloatFormatMatchesBruteForce() throws IOException {
        for (VectorSimilarityFunction similarity : VectorSimilarityFunction.values()) {
            check(new FloatHnswVectorsFormat(), similarity);
        }
    }

    public void testBinaryFormatWithStoredFloatsScoresTheFloats() throws IOException {
        for (VectorSimilarityFunction similarity : VectorSimilarityFunction.values()) {
            check(
                    new BinaryHnswVectorsFormat(
                            HnswParameters.DEFAULT, new BinaryCodeOptions(true, random().nextBoolean())),
                    similarity);
        }
    }
}
