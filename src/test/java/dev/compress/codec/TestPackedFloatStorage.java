package dev.compress.codec;

import dev.compress.codec.binary.BinaryCodeOptions;
import dev.compress.codec.binary.BinaryFlatVectorsFormat;
import dev.compress.codec.binary.BinaryHnswVectorsFormat;
import java.io.IOException;
import java.util.Random;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.KnnFloatVectorField;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.index.CodecReader;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.FloatVectorValues;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.KnnVectorValues;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.VectorSimilarityFunction;
import org.apache.lucene.search.DocAndFloatFeatureBuffer;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.VectorScorer;
import org.apache.lucene.store.Directory;
import org.apache.lucene.tests.util.LuceneTestCase;
import org.apache.lucene.tests.util.TestUtil;
import org.apache.lucene.util.BitSetIterator;
import org.apache.lucene.util.Bits;
import org.apache.lucene.util.FixedBitSet;
import org.apache.lucene.util.VectorUtil;

/**
 * The float32 vectors a binary field keeps are read back bit for bit, after flush and after a
 * merge of segments with documents missing the field: packed in fewer bytes than float32 for
 * embedding-like vectors, as plain float32 where most exponents are too spread to pack; and the
 * rescorer's bulk interface scores them exactly.
 */
public class TestPackedFloatStorage extends LuceneTestCase {

    private static final String FIELD = "v";

    private static float[][] unitGaussian(Random random, int n, int dims) {
        float[][] vectors = new float[n][dims];
        for (float[] v : vectors) {
            for (int i = 0; i < dims; i++) {
                v[i] = (float) random.nextGaussian() + 0.1f;
            }
            VectorUtil.l2normalize(v);
        }
        return vectors;
    }

    /** Magnitudes spread uniformly over 10^-20 to 10^15: most components fall outside any window. */
    private static float[][] spreadExponents(Random random, int n, int dims) {
        float[][] vectors = new float[n][dims];
        for (float[] v : vectors) {
            for (int i = 0; i < dims; i++) {
                v[i] = (float) ((random.nextBoolean() ? 1 : -1) * Math.pow(10, 35 * random.nextDouble() - 20));
            }
        }
        return vectors;
    }

    /**
     * Indexes {@code vectors} (every seventh document without one) in several segments, merges them
     * when {@code merge}, checks that every vector reads back exactly and returns the bytes of the
     * floats file per vector.
     */
    private static double indexAndCheck(float[][] vectors, VectorSimilarityFunction similarity, boolean merge)
            throws IOException {
        int dims = vectors[0].length;
        try (Directory dir = newDirectory()) {
            IndexWriterConfig config = new IndexWriterConfig()
                    .setCodec(TestUtil.alwaysKnnVectorsFormat(new BinaryHnswVectorsFormat(
                            HnswParameters.DEFAULT, new BinaryCodeOptions(true, random().nextBoolean()))))
                    .setMaxBufferedDocs(50 + random().nextInt(100));
            try (IndexWriter writer = new IndexWriter(dir, config)) {
                for (int id = 0; id < vectors.length; id++) {
                    Document doc = new Document();
                    doc.add(new StoredField("id", id));
                    if (id % 7 != 3) {
                        doc.add(new KnnFloatVectorField(FIELD, vectors[id], similarity));
                    }
                    writer.addDocument(doc);
                }
                if (merge) {
                    writer.forceMerge(1);
                }
            }
            long bytes = 0;
            int count = 0;
            try (DirectoryReader reader = DirectoryReader.open(dir)) {
                for (var context : reader.leaves()) {
                    LeafReader leaf = context.reader();
                    FloatVectorValues values = leaf.getFloatVectorValues(FIELD);
                    KnnVectorValues.DocIndexIterator it = values.iterator();
                    for (int doc = it.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; doc = it.nextDoc()) {
                        int id = leaf.storedFields()
                                .document(doc)
                                .getField("id")
                                .numericValue()
                                .intValue();
                        float[] read = values.vectorValue(it.index());
                        for (int i = 0; i < dims; i++) {
                            assertEquals(
                                    "document " + id + " component " + i,
                                    Float.floatToRawIntBits(vectors[id][i]),
                                    Float.floatToRawIntBits(read[i]));
                        }
                        count++;
                    }
                    assertBulkRescoresExactly(leaf, vectors, similarity);
                    bytes += ((CodecReader) leaf)
                            .getVectorReader()
                            .getOffHeapByteSize(leaf.getFieldInfos().fieldInfo(FIELD))
                            .get(BinaryFlatVectorsFormat.FLOATS_EXTENSION);
                }
            }
            assertEquals(vectors.length - (vectors.length + 3) / 7, count);
            return (double) bytes / count;
        }
    }

    /**
     * The rescorer's bulk interface, as a rescored search calls it: for a random subset of the
     * documents and random live documents, it returns the live ones that have a vector, in order,
     * each with the score of the similarity on the indexed floats, and their maximum.
     */
    private static void assertBulkRescoresExactly(
            LeafReader leaf, float[][] vectors, VectorSimilarityFunction similarity) throws IOException {
        Random random = random();
        float[] query = vectors[random.nextInt(vectors.length)].clone();
        query[0] += 0.5f;
        FixedBitSet subset = new FixedBitSet(leaf.maxDoc());
        FixedBitSet live = new FixedBitSet(leaf.maxDoc());
        for (int doc = 0; doc < leaf.maxDoc(); doc++) {
            if (random.nextInt(3) > 0) {
                subset.set(doc);
            }
            if (random.nextInt(5) > 0) {
                live.set(doc);
            }
        }
        Bits liveDocs = random.nextBoolean() ? live : null;
        VectorScorer.Bulk bulk =
                leaf.getFloatVectorValues(FIELD).rescorer(query).bulk(new BitSetIterator(subset, 0));
        DocAndFloatFeatureBuffer buffer = new DocAndFloatFeatureBuffer();
        KnnVectorValues.DocIndexIterator withVector =
                leaf.getFloatVectorValues(FIELD).iterator();
        int expected = -1;
        for (float max = bulk.nextDocsAndScores(DocIdSetIterator.NO_MORE_DOCS, liveDocs, buffer);
                buffer.size > 0;
                max = bulk.nextDocsAndScores(DocIdSetIterator.NO_MORE_DOCS, liveDocs, buffer)) {
            float batchMax = Float.NEGATIVE_INFINITY;
            for (int i = 0; i < buffer.size; i++) {
                expected = nextExpected(expected, subset, liveDocs, withVector);
                assertEquals(expected, buffer.docs[i]);
                int id = leaf.storedFields()
                        .document(expected)
                        .getField("id")
                        .numericValue()
                        .intValue();
                // the same floats, scored again: Lucene's Vector API sums may add lanes in another order once compiled
                float score = similarity.compare(query, vectors[id]);
                assertEquals("document " + id, score, buffer.features[i], 4 * Math.ulp(score));
                batchMax = Math.max(batchMax, buffer.features[i]);
            }
            assertEquals(batchMax, max, 0f);
        }
        assertEquals(DocIdSetIterator.NO_MORE_DOCS, nextExpected(expected, subset, liveDocs, withVector));
    }

    /** The next document after {@code doc} in {@code subset}, live and with a vector. */
    private static int nextExpected(int doc, FixedBitSet subset, Bits live, KnnVectorValues.DocIndexIterator withVector)
            throws IOException {
        for (int next = withVector.docID() > doc ? withVector.docID() : withVector.advance(doc + 1);
                next != DocIdSetIterator.NO_MORE_DOCS;
                next = withVector.nextDoc()) {
            if (subset.get(next) && (live == null || live.get(next))) {
                return next;
            }
        }
        return DocIdSetIterator.NO_MORE_DOCS;
    }

    public void testEmbeddingLikeVectorsArePackedBelowFloat32() throws IOException {
        int dims = 2 + random().nextInt(400);
        float[][] vectors = unitGaussian(random(), 300 + random().nextInt(300), dims);
        for (boolean merge : new boolean[] {false, true}) {
            double perVector = indexAndCheck(vectors, VectorSimilarityFunction.COSINE, merge);
            // 3.5 bytes per component, plus the rare exception (8 bytes) and padding between segments
            assertTrue("bytes per vector " + perVector + " at " + dims + "-d", perVector < 3.6 * dims + 64);
            assertTrue("bytes per vector " + perVector + " at " + dims + "-d", perVector >= 3.5 * dims);
        }
    }

    public void testSpreadExponentsAreStoredAsFloat32() throws IOException {
        int dims = 1 + random().nextInt(100);
        float[][] vectors = spreadExponents(random(), 200 + random().nextInt(200), dims);
        double perVector = indexAndCheck(vectors, VectorSimilarityFunction.EUCLIDEAN, true);
        assertEquals("one merged segment, no padding", 4.0 * dims, perVector, 1e-9);
    }
}
