package dev.compress.codec;

import dev.compress.codec.binary.BinaryCodeOptions;
import dev.compress.codec.binary.BinaryFlatVectorsFormat;
import dev.compress.codec.binary.BinaryHnswVectorsFormat;
import dev.compress.codec.binary.SignBinarizer;
import dev.compress.codec.search.RescoringKnnQuery;
import java.io.IOException;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Random;
import java.util.Set;
import java.util.stream.IntStream;
import org.apache.lucene.codecs.KnnVectorsFormat;
import org.apache.lucene.codecs.perfield.PerFieldKnnVectorsFormat;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.KnnFloatVectorField;
import org.apache.lucene.document.NumericDocValuesField;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.index.CodecReader;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.FloatVectorValues;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.KnnVectorValues;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.LogDocMergePolicy;
import org.apache.lucene.index.NoMergePolicy;
import org.apache.lucene.index.SortingCodecReader;
import org.apache.lucene.index.VectorSimilarityFunction;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.Sort;
import org.apache.lucene.search.SortField;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.store.Directory;
import org.apache.lucene.tests.util.LuceneTestCase;
import org.apache.lucene.tests.util.TestUtil;
import org.apache.lucene.util.VectorUtil;

/**
 * The codes-only variant ({@code rescore_vectors: false}), which Lucene's suite cannot cover
 * because its vectors read back decoded, not as indexed.
 */
public class TestBinaryCodesOnly extends LuceneTestCase {

    private static final String FIELD = "v";

    private static float[][] randomVectors(Random random, int n, int dims, boolean unit) {
        float[][] vectors = new float[n][dims];
        for (float[] v : vectors) {
            for (int i = 0; i < dims; i++) {
                v[i] = (float) random.nextGaussian() + 0.2f;
            }
            if (unit) {
                VectorUtil.l2normalize(v);
            }
        }
        return vectors;
    }

    private static IndexWriterConfig config(KnnVectorsFormat format) {
        return new IndexWriterConfig()
                .setCodec(TestUtil.alwaysKnnVectorsFormat(format))
                .setMergePolicy(NoMergePolicy.INSTANCE);
    }

    private static void add(IndexWriter writer, float[][] vectors, VectorSimilarityFunction similarity)
            throws IOException {
        add(writer, vectors, similarity, 0, vectors.length);
    }

    /** Adds the documents {@code from} to {@code to} (exclusive), each with its id stored. */
    private static void add(
            IndexWriter writer, float[][] vectors, VectorSimilarityFunction similarity, int from, int to)
            throws IOException {
        for (int id = from; id < to; id++) {
            Document doc = new Document();
            doc.add(new StoredField("sid", id));
            doc.add(new KnnFloatVectorField(FIELD, vectors[id], similarity));
            writer.addDocument(doc);
        }
    }

    /** One flushed segment reads back as centre +- mean absolute deviation, sign by sign. */
    public void testSegmentReadsBackDecodedCodes() throws IOException {
        Random random = random();
        int dims = 2 + random.nextInt(300);
        VectorSimilarityFunction similarity =
                random.nextBoolean() ? VectorSimilarityFunction.DOT_PRODUCT : VectorSimilarityFunction.EUCLIDEAN;
        boolean centred = random.nextBoolean();
        float[][] vectors = randomVectors(random, 50 + random.nextInt(200), dims, true);
        try (Directory dir = newDirectory()) {
            try (IndexWriter writer = new IndexWriter(
                    dir,
                    config(new BinaryHnswVectorsFormat(
                            HnswParameters.DEFAULT, new BinaryCodeOptions(false, centred))))) {
                add(writer, vectors, similarity);
            }
            float[] centre = new float[dims];
            if (centred) {
                for (float[] v : vectors) {
                    for (int i = 0; i < dims; i++) {
                        centre[i] += v[i];
                    }
                }
                for (int i = 0; i < dims; i++) {
                    centre[i] /= vectors.length;
                }
            }
            float[] scale = new float[dims];
            for (float[] v : vectors) {
                for (int i = 0; i < dims; i++) {
                    scale[i] += Math.abs(v[i] - centre[i]);
                }
            }
            try (DirectoryReader reader = DirectoryReader.open(dir)) {
                LeafReader leaf = getOnlyLeafReader(reader);
                FloatVectorValues values = leaf.getFloatVectorValues(FIELD);
                assertEquals(vectors.length, values.size());
                KnnVectorValues.DocIndexIterator it = values.iterator();
                for (int doc = it.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; doc = it.nextDoc()) {
                    float[] original = vectors[doc];
                    float[] decoded = values.vectorValue(it.index());
                    for (int i = 0; i < dims; i++) {
                        float s = scale[i] / vectors.length;
                        float expected = original[i] > centre[i] ? centre[i] + s : centre[i] - s;
                        assertEquals(expected, decoded[i], 1e-5f);
                    }
                }
                // The per-field format name is what an OpenSearch node resolves through SPI on restart.
                assertEquals(
                        BinaryHnswVectorsFormat.NAME,
                        leaf.getFieldInfos()
                                .fieldInfo(FIELD)
                                .getAttribute(PerFieldKnnVectorsFormat.PER_FIELD_FORMAT_KEY));
                Set<String> files = new HashSet<>(((CodecReader) leaf)
                        .getVectorReader()
                        .getOffHeapByteSize(leaf.getFieldInfos().fieldInfo(FIELD))
                        .keySet());
                files.remove("vex"); // the graph, when the segment has one
                assertEquals("only codes may be stored", Set.of(BinaryFlatVectorsFormat.DATA_EXTENSION), files);
            }
        }
    }

    /** Uncentred codes survive merges bit for bit, since decoding preserves every sign. */
    public void testMergesKeepUncentredCodes() throws IOException {
        Random random = random();
        int dims = 8 + random.nextInt(200);
        float[][] vectors = randomVectors(random, 600, dims, false);
        KnnVectorsFormat format =
                new BinaryHnswVectorsFormat(new HnswParameters(8, 40), new BinaryCodeOptions(false, false));
        try (Directory dir = newDirectory()) {
            try (IndexWriter writer = new IndexWriter(
                    dir, config(format).setMaxBufferedDocs(100).setMergePolicy(new LogDocMergePolicy()))) {
                add(writer, vectors, VectorSimilarityFunction.EUCLIDEAN);
                writer.commit();
                writer.forceMerge(1);
            }
            // Reopened through SPI with default options: the codes-only flag must come from the files.
            try (DirectoryReader reader = DirectoryReader.open(dir)) {
                LeafReader leaf = getOnlyLeafReader(reader);
                FloatVectorValues values = leaf.getFloatVectorValues(FIELD);
                assertEquals(vectors.length, values.size());
                KnnVectorValues.DocIndexIterator it = values.iterator();
                for (int doc = it.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; doc = it.nextDoc()) {
                    float[] decoded = values.vectorValue(it.index());
                    for (int i = 0; i < dims; i++) {
                        assertEquals("doc " + doc + " dim " + i, vectors[doc][i] > 0, decoded[i] > 0);
                    }
                }
            }
            TestUtil.checkIndex(dir);
        }
    }

    /**
     * Centred codes-only segments keep every code through a merge: each bit still says which side of
     * its own segment's centre the vector was, and decodes around the merged centre (the mean of the
     * segments' centres, weighted by their vectors).
     */
    public void testMergesKeepCentredCodes() throws IOException {
        Random random = random();
        int dims = 32 + random.nextInt(200);
        float[][] vectors = randomVectors(random, 600, dims, true);
        KnnVectorsFormat format =
                new BinaryHnswVectorsFormat(HnswParameters.DEFAULT, new BinaryCodeOptions(false, true));
        try (Directory dir = newDirectory()) {
            boolean[][] before = new boolean[vectors.length][];
            try (IndexWriter writer = new IndexWriter(
                    dir, config(format).setMaxBufferedDocs(100).setMergePolicy(new LogDocMergePolicy()))) {
                add(writer, vectors, VectorSimilarityFunction.DOT_PRODUCT);
                writer.commit();
                try (DirectoryReader reader = DirectoryReader.open(writer)) {
                    assertTrue(reader.leaves().size() > 1);
                    for (var leaf : reader.leaves()) {
                        int size = leaf.reader().maxDoc();
                        // summed then divided, in document order, as the writer does: the bits must match exactly
                        float[] centre = new float[dims];
                        for (int doc = 0; doc < size; doc++) {
                            for (int i = 0; i < dims; i++) {
                                centre[i] += vectors[leaf.docBase + doc][i];
                            }
                        }
                        for (int i = 0; i < dims; i++) {
                            centre[i] /= size;
                        }
                        for (int doc = 0; doc < size; doc++) {
                            int id = leaf.docBase + doc;
                            before[id] = new boolean[dims];
                            for (int i = 0; i < dims; i++) {
                                before[id][i] = vectors[id][i] > centre[i];
                            }
                        }
                    }
                }
                writer.forceMerge(1);
            }
            float[] mergedCentre = new float[dims];
            for (float[] v : vectors) {
                for (int i = 0; i < dims; i++) {
                    mergedCentre[i] += v[i] / vectors.length;
                }
            }
            try (DirectoryReader reader = DirectoryReader.open(dir)) {
                FloatVectorValues values = getOnlyLeafReader(reader).getFloatVectorValues(FIELD);
                assertEquals(vectors.length, values.size());
                KnnVectorValues.DocIndexIterator it = values.iterator();
                for (int doc = it.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; doc = it.nextDoc()) {
                    float[] after = values.vectorValue(it.index());
                    for (int i = 0; i < dims; i++) {
                        assertEquals("doc " + doc + " dim " + i, before[doc][i], after[i] > mergedCentre[i]);
                    }
                }
            }
        }
    }

    /**
     * Euclidean and inner-product fields rank documents of different lengths as well after a merge
     * as before: the merge keeps each vector's stored norm and scale factor rather than taking them
     * from decoded vectors, which all have about the same length. A segment of one document (its
     * vector is its centre, so its code says nothing) must not come out of the merge with a
     * made-up scale factor that puts it in every top 10.
     */
    public void testMergesKeepTheRankingOfVectorsOfDifferentLengths() throws IOException {
        Random random = random();
        int dims = 64 + random.nextInt(200);
        VectorSimilarityFunction similarity = random.nextBoolean()
                ? VectorSimilarityFunction.EUCLIDEAN
                : VectorSimilarityFunction.MAXIMUM_INNER_PRODUCT;
        float[][] vectors = randomVectors(random, 601, dims, true);
        int lonely = vectors.length - 1;
        for (float[] v : vectors) {
            float length = 0.5f + random.nextFloat();
            for (int i = 0; i < dims; i++) {
                v[i] *= length;
            }
        }
        float[][] queries = randomVectors(random, 30, dims, true);
        KnnVectorsFormat format =
                new BinaryHnswVectorsFormat(HnswParameters.DEFAULT, new BinaryCodeOptions(false, true));
        try (Directory dir = newDirectory()) {
            try (IndexWriter writer = new IndexWriter(
                    dir, config(format).setMaxBufferedDocs(100).setMergePolicy(new LogDocMergePolicy()))) {
                add(writer, vectors, similarity, 0, lonely);
                writer.commit();
                add(writer, vectors, similarity, lonely, vectors.length);
                writer.commit();
                Recall before;
                try (DirectoryReader reader = DirectoryReader.open(writer)) {
                    assertEquals(1, reader.leaves().getLast().reader().maxDoc());
                    before = estimateRecall(reader, vectors, queries, similarity, lonely);
                }
                writer.forceMerge(1);
                try (DirectoryReader reader = DirectoryReader.open(writer)) {
                    Recall after = estimateRecall(reader, vectors, queries, similarity, lonely);
                    assertTrue(
                            similarity + ": recall@10 " + before + " before the merge, " + after + " after",
                            after.recall() > before.recall() - 0.1);
                    assertTrue(
                            similarity + ": the one-document segment's vector is in " + after.tracedInTop()
                                    + " estimated top 10s of " + queries.length + ", in " + after.tracedInTruth()
                                    + " true ones",
                            after.tracedInTop() <= after.tracedInTruth() + 3);
                }
            }
        }
    }

    /**
     * A source whose vector values are not the format's own (here Lucene's sorting reader, which an
     * index sort puts around unsorted sources of a merge) is binarised from the floats it gives: the
     * merge writes a valid segment in the sorted order, whose estimate ranks as well as the source's.
     */
    public void testAWrappedSourceIsBinarisedFromItsFloats() throws IOException {
        Random random = random();
        int dims = 32 + random.nextInt(200);
        VectorSimilarityFunction similarity = VectorSimilarityFunction.DOT_PRODUCT;
        float[][] vectors = randomVectors(random, 400, dims, true);
        float[][] queries = randomVectors(random, 30, dims, true);
        KnnVectorsFormat format =
                new BinaryHnswVectorsFormat(HnswParameters.DEFAULT, new BinaryCodeOptions(false, true));
        Sort sort = new Sort(new SortField("order", SortField.Type.LONG));
        try (Directory source = newDirectory();
                Directory target = newDirectory()) {
            try (IndexWriter writer = new IndexWriter(source, config(format))) {
                for (int id = 0; id < vectors.length; id++) {
                    Document doc = new Document();
                    doc.add(new StoredField("sid", id));
                    doc.add(new NumericDocValuesField("order", id * 7919L % vectors.length)); // a permutation
                    doc.add(new KnnFloatVectorField(FIELD, vectors[id], similarity));
                    writer.addDocument(doc);
                }
            }
            double before;
            try (DirectoryReader reader = DirectoryReader.open(source);
                    IndexWriter writer = new IndexWriter(
                            target, config(format).setIndexSort(sort).setMergePolicy(new LogDocMergePolicy()))) {
                before =
                        estimateRecall(reader, vectors, queries, similarity, -1).recall();
                CodecReader[] sorted = new CodecReader[reader.leaves().size()];
                for (int i = 0; i < sorted.length; i++) {
                    sorted[i] = SortingCodecReader.wrap(
                            (CodecReader) reader.leaves().get(i).reader(), sort);
                }
                writer.addIndexes(sorted);
            }
            try (DirectoryReader reader = DirectoryReader.open(target)) {
                assertEquals(vectors.length, reader.numDocs());
                LeafReader leaf = getOnlyLeafReader(reader);
                for (int doc = 0; doc < leaf.maxDoc(); doc++) {
                    int id = leaf.storedFields()
                            .document(doc)
                            .getField("sid")
                            .numericValue()
                            .intValue();
                    assertEquals(doc, id * 7919L % vectors.length);
                }
                double after =
                        estimateRecall(reader, vectors, queries, similarity, -1).recall();
                assertTrue("recall@10 " + before + " before, " + after + " after", after > before - 0.1);
            }
            TestUtil.checkIndex(target);
        }
    }

    /** Recall@10, and how many of the top 10s (estimated, true) hold one traced document. */
    private record Recall(double recall, int tracedInTop, int tracedInTruth) {}

    /**
     * Recall@10 of the codes' estimate, every document a candidate ({@code rescore} on a codes-only
     * field scores with the estimate), against the exact similarity.
     */
    private static Recall estimateRecall(
            DirectoryReader reader,
            float[][] vectors,
            float[][] queries,
            VectorSimilarityFunction similarity,
            int traced)
            throws IOException {
        IndexSearcher searcher = new IndexSearcher(reader);
        double recall = 0;
        int tracedInTop = 0, tracedInTruth = 0;
        for (float[] query : queries) {
            int[] truth = IntStream.range(0, vectors.length)
                    .boxed()
                    .sorted((a, b) ->
                            Float.compare(similarity.compare(query, vectors[b]), similarity.compare(query, vectors[a])))
                    .limit(10)
                    .mapToInt(Integer::intValue)
                    .toArray();
            TopDocs hits = searcher.search(new RescoringKnnQuery(FIELD, query, 10, vectors.length, null, true), 10);
            for (ScoreDoc hit : hits.scoreDocs) {
                int id = searcher.storedFields()
                        .document(hit.doc)
                        .getField("sid")
                        .numericValue()
                        .intValue();
                tracedInTop += id == traced ? 1 : 0;
                for (int t : truth) {
                    recall += t == id ? 0.1 / queries.length : 0;
                }
            }
            tracedInTruth += Arrays.stream(truth).anyMatch(t -> t == traced) ? 1 : 0;
        }
        return new Recall(recall, tracedInTop, tracedInTruth);
    }

    /**
     * Rescoring a codes-only field scores with the float-arithmetic estimate from the stored codes
     * and corrections; without rescoring, hits carry the graph walk's scores.
     */
    public void testRescoringUsesEstimatesFromCodes() throws IOException {
        Random random = random();
        int dims = 64 + random.nextInt(200);
        boolean centred = random.nextBoolean();
        float[][] vectors = randomVectors(random, 500, dims, true);
        KnnVectorsFormat format =
                new BinaryHnswVectorsFormat(HnswParameters.DEFAULT, new BinaryCodeOptions(false, centred));
        float[] centre = new float[dims];
        if (centred) {
            for (float[] v : vectors) {
                for (int i = 0; i < dims; i++) {
                    centre[i] += v[i];
                }
            }
            for (int i = 0; i < dims; i++) {
                centre[i] /= vectors.length;
            }
        }
        try (Directory dir = newDirectory()) {
            try (IndexWriter writer = new IndexWriter(dir, config(format))) {
                add(writer, vectors, VectorSimilarityFunction.DOT_PRODUCT);
            }
            try (DirectoryReader reader = DirectoryReader.open(dir)) {
                LeafReader leaf = getOnlyLeafReader(reader);
                IndexSearcher searcher = new IndexSearcher(reader);
                float[] query = randomVectors(random, 1, dims, true)[0];
                TopDocs rescored = searcher.search(new RescoringKnnQuery(FIELD, query, 10, 3f, null, true), 10);
                assertEquals(10, rescored.scoreDocs.length);
                for (ScoreDoc hit : rescored.scoreDocs) {
                    double expected = BruteForceEstimate.score(
                            query, vectors[hit.doc], centre, VectorSimilarityFunction.DOT_PRODUCT);
                    assertEquals(expected, hit.score, 1e-4);
                }
                TopDocs walked = searcher.search(new RescoringKnnQuery(FIELD, query, 10, 3f, null, false), 10);
                assertEquals(10, walked.scoreDocs.length);
                for (ScoreDoc hit : walked.scoreDocs) {
                    var scorer = leaf.getFloatVectorValues(FIELD).scorer(query);
                    assertEquals(hit.doc, scorer.iterator().advance(hit.doc));
                    assertEquals(scorer.score(), hit.score, 0f);
                }
            }
        }
    }

    public void testCodesTakeOneBitPerDimension() {
        assertEquals(1, SignBinarizer.codeBytes(1));
        assertEquals(48, SignBinarizer.codeBytes(384));
        assertEquals(512, SignBinarizer.codeBytes(4096));
    }
}
