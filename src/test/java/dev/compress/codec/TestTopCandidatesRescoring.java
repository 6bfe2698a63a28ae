package dev.compress.codec;

import dev.compress.codec.binary.BinaryCodeOptions;
import dev.compress.codec.binary.BinaryHnswVectorsFormat;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.KnnFloatVectorField;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.VectorSimilarityFunction;
import org.apache.lucene.search.DocAndFloatFeatureBuffer;
import org.apache.lucene.search.VectorScorer;
import org.apache.lucene.store.Directory;
import org.apache.lucene.tests.util.LuceneTestCase;
import org.apache.lucene.tests.util.TestUtil;
import org.apache.lucene.util.VectorUtil;

/**
 * A binary field's rescorer finds a segment's n best candidates ({@link TopCandidatesRescorer})
 * exactly as scoring every candidate would: every candidate it leaves out is below n candidates it
 * keeps, and every score it returns is the similarity on the indexed floats; it leaves candidates
 * out where the stored floats bound their scores apart, and keeps them where only the bits its
 * first pass does not read order them.
 */
public class TestTopCandidatesRescoring extends LuceneTestCase {

    private static final String FIELD = "v";

    public void testKeepsTheExactBestOfRandomCandidates() throws IOException {
        for (VectorSimilarityFunction similarity : VectorSimilarityFunction.values()) {
            Random random = random();
            int dims = 2 + random.nextInt(300);
            float[][] vectors = new float[300 + random.nextInt(300)][dims];
            for (float[] v : vectors) {
                for (int i = 0; i < dims; i++) {
                    v[i] = (float) random.nextGaussian() + 0.2f;
                }
                if (random.nextInt(10) == 0) {
                    v[random.nextInt(dims)] = 0f; // outside every window: kept whole after the record
                }
                if (similarity == VectorSimilarityFunction.DOT_PRODUCT) {
                    VectorUtil.l2normalize(v);
                } else if (similarity == VectorSimilarityFunction.MAXIMUM_INNER_PRODUCT) {
                    float scale = 0.5f + random.nextFloat();
                    for (int i = 0; i < dims; i++) {
                        v[i] *= scale;
                    }
                }
            }
            int pruned = 0;
            int calls = 0;
            try (Directory dir = newDirectory()) {
                index(dir, vectors, similarity);
                try (DirectoryReader reader = DirectoryReader.open(dir)) {
                    for (LeafReaderContext context : reader.leaves()) {
                        for (int query = 0; query < 10; query++) {
                            float[] target = vectors[random.nextInt(vectors.length)].clone();
                            for (int i = 0; i < dims; i++) {
                                target[i] += 0.3f * (float) random.nextGaussian();
                            }
                            int[] docs =
                                    randomCandidates(random, context.reader().maxDoc());
                            if (docs.length == 0) {
                                continue;
                            }
                            int n = 1 + random.nextInt(15);
                            int kept = assertKeepsBest(context.reader(), vectors, similarity, target, docs, n);
                            pruned += docs.length - kept;
                            calls++;
                        }
                    }
                }
            }
            if (similarity == VectorSimilarityFunction.EUCLIDEAN) {
                assertEquals("no bounds for Euclidean: every candidate is scored exactly", 0, pruned);
            } else {
                assertTrue(similarity + ": " + pruned + " candidates left out in " + calls + " calls", pruned > calls);
            }
        }
    }

    /**
     * Two candidates whose first-pass values order them the wrong way: on components 0 and 1, A sits
     * at the top of the intervals its top 16 bits span and B at the bottom of the next, so B's coarse
     * dot product with (1, 1, 0, 0) is higher and A's exact one is. Both must reach the exact pass,
     * and A is the best.
     */
    public void testKeepsCandidatesThatOnlyTheExactFloatsOrder() throws IOException {
        float top = Float.intBitsToFloat(Float.floatToRawIntBits(0.5f) | 0xFFFF); // 0.5 + 2^-8 - 2^-24
        float nextInterval = Float.intBitsToFloat(Float.floatToRawIntBits(0.5f) + 0x10000); // 0.5 + 2^-8
        List<float[]> vectors = new ArrayList<>();
        vectors.add(new float[] {top, top, 0.25f, 0.25f}); // A: exact 1 + 2^-7 - 2^-23
        vectors.add(new float[] {0.5f, nextInterval, 0.25f, 0.25f}); // B: exact 1 + 2^-8
        Random random = random();
        for (int i = 0; i < 40; i++) {
            vectors.add(new float[] {0.3f + 0.1f * random.nextFloat(), 0.3f + 0.1f * random.nextFloat(), 0.25f, 0.25f});
        }
        float[][] all = vectors.toArray(new float[0][]);
        VectorSimilarityFunction similarity = VectorSimilarityFunction.MAXIMUM_INNER_PRODUCT;
        try (Directory dir = newDirectory()) {
            IndexWriterConfig config = new IndexWriterConfig()
                    .setCodec(TestUtil.alwaysKnnVectorsFormat(
                            new BinaryHnswVectorsFormat(HnswParameters.DEFAULT, new BinaryCodeOptions(true, false))));
            try (IndexWriter writer = new IndexWriter(dir, config)) {
                for (int id = 0; id < all.length; id++) {
                    Document doc = new Document();
                    doc.add(new StoredField("id", id));
                    doc.add(new KnnFloatVectorField(FIELD, all[id], similarity));
                    writer.addDocument(doc);
                }
                writer.forceMerge(1);
            }
            try (DirectoryReader reader = DirectoryReader.open(dir)) {
                LeafReader leaf = reader.leaves().get(0).reader();
                int[] docs = new int[leaf.maxDoc()];
                Arrays.setAll(docs, i -> i);
                float[] target = {1f, 1f, 0f, 0f};
                assertKeepsBest(leaf, all, similarity, target, docs, 1);
                DocAndFloatFeatureBuffer out = rescoreBest(leaf, target, docs, 1);
                Set<Integer> ids = new HashSet<>();
                for (int i = 0; i < out.size; i++) {
                    ids.add(id(leaf, out.docs[i]));
                }
                assertTrue("A and B both scored exactly: " + ids, ids.contains(0) && ids.contains(1));
                assertTrue("the rest left out: " + ids, ids.size() < docs.length);
            }
        }
    }

    private static void index(Directory dir, float[][] vectors, VectorSimilarityFunction similarity)
            throws IOException {
        IndexWriterConfig config = new IndexWriterConfig()
                .setCodec(TestUtil.alwaysKnnVectorsFormat(new BinaryHnswVectorsFormat(
                        HnswParameters.DEFAULT, new BinaryCodeOptions(true, random().nextBoolean()))))
                .setMaxBufferedDocs(100 + random().nextInt(200));
        try (IndexWriter writer = new IndexWriter(dir, config)) {
            for (int id = 0; id < vectors.length; id++) {
                Document doc = new Document();
                doc.add(new StoredField("id", id));
                doc.add(new KnnFloatVectorField(FIELD, vectors[id], similarity));
                writer.addDocument(doc);
            }
            if (random().nextBoolean()) {
                writer.forceMerge(1);
            }
        }
    }

    private static int[] randomCandidates(Random random, int maxDoc) {
        int[] docs = new int[maxDoc];
        int count = 0;
        int share = 1 + random.nextInt(3);
        for (int doc = 0; doc < maxDoc; doc++) {
            if (random.nextInt(share) == 0) {
                docs[count++] = doc;
            }
        }
        return Arrays.copyOf(docs, count);
    }

    private static DocAndFloatFeatureBuffer rescoreBest(LeafReader leaf, float[] target, int[] docs, int n)
            throws IOException {
        VectorScorer rescorer = leaf.getFloatVectorValues(FIELD).rescorer(target);
        assertTrue("rescorer " + rescorer, rescorer instanceof TopCandidatesRescorer);
        DocAndFloatFeatureBuffer out = new DocAndFloatFeatureBuffer();
        ((TopCandidatesRescorer) rescorer).rescoreBest(docs, docs.length, n, out);
        return out;
    }

    /**
     * Checks {@link TopCandidatesRescorer#rescoreBest} against scoring every candidate exactly and
     * returns how many candidates it kept.
     */
    private static int assertKeepsBest(
            LeafReader leaf, float[][] vectors, VectorSimilarityFunction similarity, float[] target, int[] docs, int n)
            throws IOException {
        DocAndFloatFeatureBuffer out = rescoreBest(leaf, target, docs, n);
        float[] exact = new float[docs.length];
        for (int i = 0; i < docs.length; i++) {
            exact[i] = similarity.compare(target, vectors[id(leaf, docs[i])]);
        }
        Set<Integer> candidates = new HashSet<>();
        for (int doc : docs) {
            candidates.add(doc);
        }
        Set<Integer> kept = new HashSet<>();
        for (int i = 0; i < out.size; i++) {
            assertTrue("doc " + out.docs[i] + " is a candidate", candidates.contains(out.docs[i]));
            assertTrue("doc " + out.docs[i] + " once", kept.add(out.docs[i]));
            // the same floats, scored again: Lucene's Vector API sums may add lanes in another order once compiled
            float expected = similarity.compare(target, vectors[id(leaf, out.docs[i])]);
            assertEquals(similarity + " doc " + out.docs[i], expected, out.features[i], 4 * Math.ulp(expected));
        }
        float[] sorted = exact.clone();
        Arrays.sort(sorted);
        float nth = sorted[Math.max(0, sorted.length - n)];
        int atLeastNth = 0;
        for (int i = 0; i < docs.length; i++) {
            if (exact[i] > nth) {
                assertTrue(
                        "doc " + docs[i] + " scores " + exact[i] + " above the n-th best " + nth,
                        kept.contains(docs[i]));
            }
            if (exact[i] >= nth && kept.contains(docs[i])) {
                atLeastNth++;
            }
        }
        assertTrue("kept " + atLeastNth + " of the " + n + " best", atLeastNth >= Math.min(n, docs.length));
        return out.size;
    }

    private static int id(LeafReader leaf, int doc) throws IOException {
        return leaf.storedFields().document(doc).getField("id").numericValue().intValue();
    }
}
