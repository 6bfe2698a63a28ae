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
import java.util.Locale;
import java.util.Set;
import org.apache.lucene.codecs.KnnVectorsFormat;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.KnnFloatVectorField;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.document.StringField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.index.VectorSimilarityFunction;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.TermInSetQuery;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.store.Directory;
import org.apache.lucene.tests.util.LuceneTestCase;
import org.apache.lucene.tests.util.TestUtil;
import org.apache.lucene.util.BytesRef;

/**
 * {@link RescoringKnnQuery} with a masked query (the dropped dimensions zeroed, as {@code
 * compressed_knn}'s {@code mask} sends it) against brute-force masked scoring, the inner product over
 * the kept dimensions, on float and binary formats, one segment and several.
 */
public class TestMaskedKnnQuery extends LuceneTestCase {

    private static final String FIELD = "v";
    private static final int DIMS = 128;
    private static final int DOCS = 2000;
    private static final int K = 10;
    private static final int LATENT = 16;
    private static final VectorSimilarityFunction SIMILARITY = VectorSimilarityFunction.DOT_PRODUCT;

    private LowRankUnitVectors generator;

    @Override
    public void setUp() throws Exception {
        super.setUp();
        generator = new LowRankUnitVectors(random(), DIMS, LATENT);
    }

    private float[] vector() {
        return generator.next(random());
    }

    /** The 30% of dimensions where the query is largest in magnitude (the norm mask). */
    private static int[] normMask(float[] query) {
        Integer[] order = new Integer[DIMS];
        for (int i = 0; i < DIMS; i++) {
            order[i] = i;
        }
        Arrays.sort(order, (a, b) -> Float.compare(Math.abs(query[b]), Math.abs(query[a])));
        int[] kept = new int[Math.round(0.3f * DIMS)];
        for (int i = 0; i < kept.length; i++) {
            kept[i] = order[i];
        }
        return kept;
    }

    private static float[] zeroed(float[] query, int[] kept) {
        float[] out = new float[query.length];
        for (int j : kept) {
            out[j] = query[j];
        }
        return out;
    }

    private static float maskedScore(float[] query, int[] mask, float[] doc) {
        float ip = 0;
        for (int j : mask) {
            ip += query[j] * doc[j];
        }
        return Math.max((1 + ip) / 2, 0);
    }

    private static int[] exactTopK(float[][] docs, float[] query, int[] mask, java.util.function.IntPredicate allowed) {
        List<Integer> ids = new ArrayList<>();
        for (int id = 0; id < docs.length; id++) {
            if (allowed.test(id)) {
                ids.add(id);
            }
        }
        ids.sort((a, b) -> Float.compare(maskedScore(query, mask, docs[b]), maskedScore(query, mask, docs[a])));
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

    private float[][] index(Directory dir, KnnVectorsFormat format, int maxBufferedDocs) throws IOException {
        float[][] docs = new float[DOCS][];
        IndexWriterConfig config = new IndexWriterConfig()
                .setCodec(TestUtil.alwaysKnnVectorsFormat(format))
                .setMaxBufferedDocs(maxBufferedDocs);
        try (IndexWriter writer = new IndexWriter(dir, config)) {
            for (int id = 0; id < DOCS; id++) {
                docs[id] = vector();
                Document doc = new Document();
                doc.add(new StringField("id", Integer.toString(id), Field.Store.NO));
                doc.add(new StoredField("sid", id));
                doc.add(new KnnFloatVectorField(FIELD, docs[id], SIMILARITY));
                writer.addDocument(doc);
            }
            writer.forceMerge(maxBufferedDocs >= DOCS ? 1 : 4);
        }
        return docs;
    }

    /**
     * Rescored masked hits carry the exact masked score (floats kept) and reach {@code minRecall} of
     * the brute-force masked top k; a filter smaller than the candidate list gives the exact top k.
     */
    private void check(KnnVectorsFormat format, boolean exactScores, double minRecall) throws IOException {
        try (Directory dir = newDirectory()) {
            float[][] docs = index(dir, format, random().nextBoolean() ? DOCS : 500);
            try (DirectoryReader reader = DirectoryReader.open(dir)) {
                IndexSearcher searcher = new IndexSearcher(reader);
                double recall = 0, unrescored = 0;
                int queries = 20;
                for (int q = 0; q < queries; q++) {
                    float[] query = vector();
                    int[] mask = normMask(query);
                    float[] masked = zeroed(query, mask);
                    int[] truth = exactTopK(docs, query, mask, id -> true);

                    TopDocs hits = searcher.search(new RescoringKnnQuery(FIELD, masked, K, 5f, null, true), K);
                    int[] found = ids(searcher, hits);
                    assertEquals(K, found.length);
                    if (exactScores) {
                        for (int i = 0; i < found.length; i++) {
                            assertEquals(maskedScore(query, mask, docs[found[i]]), hits.scoreDocs[i].score, 1e-5f);
                        }
                    }
                    recall += overlap(truth, found);
                    unrescored += overlap(
                            truth,
                            ids(
                                    searcher,
                                    searcher.search(new RescoringKnnQuery(FIELD, masked, K, 5f, null, false), K)));

                    // fewer allowed documents than candidates: the exact path scores every one of them
                    Set<Integer> allowed = new HashSet<>();
                    List<BytesRef> terms = new ArrayList<>();
                    for (int i = 0; i < 30; i++) {
                        int id = random().nextInt(DOCS);
                        allowed.add(id);
                        terms.add(new BytesRef(Integer.toString(id)));
                    }
                    TopDocs few = searcher.search(
                            new RescoringKnnQuery(FIELD, masked, K, 5f, new TermInSetQuery("id", terms), true), K);
                    if (exactScores) {
                        assertArrayEquals(exactTopK(docs, query, mask, allowed::contains), ids(searcher, few));
                    } else {
                        assertTrue(overlap(exactTopK(docs, query, mask, allowed::contains), ids(searcher, few)) >= 0.6);
                    }
                }
                recall /= queries;
                unrescored /= queries;
                System.out.printf(
                        Locale.ROOT,
                        "%s: masked recall@10 rescored %.3f unrescored %.3f%n",
                        format,
                        recall,
                        unrescored);
                assertTrue("masked recall " + recall, recall >= minRecall);
            }
        }
    }

    public void testFloat() throws IOException {
        check(new FloatHnswVectorsFormat(), true, 0.95);
    }

    public void testBinaryWithStoredFloats() throws IOException {
        check(new BinaryHnswVectorsFormat(HnswParameters.DEFAULT, new BinaryCodeOptions(true, true)), true, 0.9);
    }

    public void testBinaryCodesOnly() throws IOException {
        check(new BinaryHnswVectorsFormat(HnswParameters.DEFAULT, new BinaryCodeOptions(false, true)), false, 0.45);
    }
}
