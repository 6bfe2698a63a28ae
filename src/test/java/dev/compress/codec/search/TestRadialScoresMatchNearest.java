package dev.compress.codec.search;

import dev.compress.codec.HnswParameters;
import dev.compress.codec.binary.BinaryCodeOptions;
import dev.compress.codec.binary.BinaryHnswVectorsFormat;
import dev.compress.codec.floats.FloatHnswVectorsFormat;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import org.apache.lucene.codecs.KnnVectorsFormat;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.KnnFloatVectorField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.NoMergePolicy;
import org.apache.lucene.index.VectorSimilarityFunction;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.MMapDirectory;
import org.apache.lucene.tests.util.LuceneTestCase;
import org.apache.lucene.tests.util.TestUtil;
import org.apache.lucene.util.VectorUtil;

/**
 * A k-nearest hit with exact scores (a float field, or a binary field rescored against its stored
 * floats) scores exactly as radial search scores the same document, so that a hit's score given back
 * as {@code min_score} finds that hit again.
 */
public class TestRadialScoresMatchNearest extends LuceneTestCase {

    private static final String FIELD = "v";
    private static final int K = 10;

    public void testNearestScoresAreRadialScores() throws IOException {
        Random random = new Random(random().nextLong());
        HnswParameters hnsw = new HnswParameters(16, 100);
        for (VectorSimilarityFunction similarity : VectorSimilarityFunction.values()) {
            check(new FloatHnswVectorsFormat(hnsw), true, similarity, random);
            check(new BinaryHnswVectorsFormat(hnsw, BinaryCodeOptions.DEFAULT), false, similarity, random);
        }
    }

    /** {@code floats}: a float field, searched as one ({@link RescoringKnnQuery#exactFloat}); else binary, rescored. */
    private void check(KnnVectorsFormat format, boolean floats, VectorSimilarityFunction similarity, Random random)
            throws IOException {
        int dims = 16;
        // memory-mapped, as on a node: Lucene then scores the graph walk on the mapped vectors
        try (Directory dir = new MMapDirectory(createTempDir());
                IndexWriter writer = new IndexWriter(
                        dir,
                        new IndexWriterConfig()
                                .setCodec(TestUtil.alwaysKnnVectorsFormat(format))
                                .setMergePolicy(NoMergePolicy.INSTANCE))) {
            for (int i = 0; i < 1_700; i++) {
                Document doc = new Document();
                doc.add(new KnnFloatVectorField(FIELD, vector(random, dims, similarity), similarity));
                writer.addDocument(doc);
                if (i % 600 == 599) {
                    writer.flush();
                }
            }
            try (DirectoryReader reader = DirectoryReader.open(writer)) {
                IndexSearcher searcher = newSearcher(reader);
                for (int q = 0; q < 30; q++) {
                    float[] query = vector(random, dims, similarity);
                    RescoringKnnQuery knn = floats
                            ? RescoringKnnQuery.exactFloat(FIELD, query, K, 3, null, null)
                            : new RescoringKnnQuery(FIELD, query, K, 3, null, true);
                    ScoreDoc[] nearest = searcher.search(knn, K).scoreDocs;
                    float last = nearest[nearest.length - 1].score;
                    Map<Integer, Float> radial = new HashMap<>();
                    for (ScoreDoc hit :
                            searcher.search(new SimilarityThresholdQuery(FIELD, query, last), 10 * K).scoreDocs) {
                        radial.put(hit.doc, hit.score);
                    }
                    for (ScoreDoc hit : nearest) {
                        assertEquals(
                                format + " " + similarity + ": doc " + hit.doc, (Float) hit.score, radial.get(hit.doc));
                    }
                }
            }
        }
    }

    private static float[] vector(Random random, int dims, VectorSimilarityFunction similarity) {
        float[] v = new float[dims];
        for (int i = 0; i < dims; i++) {
            v[i] = (float) random.nextGaussian();
        }
        return similarity == VectorSimilarityFunction.DOT_PRODUCT ? VectorUtil.l2normalize(v) : v;
    }
}
