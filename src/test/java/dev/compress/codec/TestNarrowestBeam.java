package dev.compress.codec;

import dev.compress.codec.binary.BinaryCodeOptions;
import dev.compress.codec.binary.BinaryHnswVectorsFormat;
import dev.compress.codec.floats.FloatHnswVectorsFormat;
import java.io.IOException;
import java.util.Random;
import org.apache.lucene.codecs.KnnVectorsFormat;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.KnnFloatVectorField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.VectorSimilarityFunction;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.KnnFloatVectorQuery;
import org.apache.lucene.store.Directory;
import org.apache.lucene.tests.util.LuceneTestCase;
import org.apache.lucene.tests.util.TestUtil;

/**
 * The narrowest {@code ef_construction} allowed builds and merges graphs that grow several layers;
 * one narrower is refused, as Lucene's builder fails every insertion once the graph has a second layer.
 */
public class TestNarrowestBeam extends LuceneTestCase {

    public void testABeamOfOneIsRefused() {
        IllegalArgumentException e = expectThrows(IllegalArgumentException.class, () -> new HnswParameters(16, 1));
        assertTrue(e.getMessage(), e.getMessage().contains("ef_construction must be in [2, "));
    }

    public void testTheNarrowestBeamIndexesAndMergesOnEveryFormat() throws IOException {
        for (int m : new int[] {2, 16}) {
            HnswParameters hnsw = new HnswParameters(m, HnswParameters.MIN_BEAM_WIDTH);
            indexAndMerge(new FloatHnswVectorsFormat(hnsw));
            indexAndMerge(new BinaryHnswVectorsFormat(hnsw, BinaryCodeOptions.DEFAULT));
        }
    }

    private void indexAndMerge(KnnVectorsFormat format) throws IOException {
        Random random = new Random(random().nextLong());
        // enough vectors per segment for an upper layer at any m: a node reaches layer 1 with probability 1 / m
        int perSegment = 1_500;
        int segments = 2;
        try (Directory dir = newDirectory();
                IndexWriter writer = new IndexWriter(
                        dir, new IndexWriterConfig().setCodec(TestUtil.alwaysKnnVectorsFormat(format)))) {
            for (int s = 0; s < segments; s++) {
                for (int i = 0; i < perSegment; i++) {
                    float[] v = new float[8];
                    for (int j = 0; j < v.length; j++) {
                        v[j] = (float) random.nextGaussian();
                    }
                    Document doc = new Document();
                    doc.add(new KnnFloatVectorField("v", v, VectorSimilarityFunction.EUCLIDEAN));
                    writer.addDocument(doc);
                }
                writer.flush();
            }
            writer.forceMerge(1);
            try (DirectoryReader reader = DirectoryReader.open(writer)) {
                assertEquals(1, reader.leaves().size());
                assertEquals(perSegment * segments, reader.numDocs());
                float[] query = new float[8];
                query[0] = 1;
                assertEquals(
                        10,
                        new IndexSearcher(reader).search(new KnnFloatVectorQuery("v", query, 10), 10).scoreDocs.length);
            }
        }
    }
}
