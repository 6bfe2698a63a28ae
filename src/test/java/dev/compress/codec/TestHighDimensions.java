package dev.compress.codec;

import dev.compress.codec.binary.BinaryCodeOptions;
import dev.compress.codec.binary.BinaryHnswVectorsFormat;
import dev.compress.codec.floats.FloatHnswVectorsFormat;
import java.io.IOException;
import org.apache.lucene.codecs.KnnVectorsFormat;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.KnnFloatVectorField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.VectorSimilarityFunction;
import org.apache.lucene.search.AcceptDocs;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.store.Directory;
import org.apache.lucene.tests.util.LuceneTestCase;
import org.apache.lucene.tests.util.TestUtil;

/** Our formats accept 4,096-dimensional vectors, past Lucene's default limit of 1,024. */
public class TestHighDimensions extends LuceneTestCase {

    private void indexAndSearch(KnnVectorsFormat format) throws IOException {
        int dims = 4096;
        try (Directory dir = newDirectory()) {
            try (IndexWriter writer =
                    new IndexWriter(dir, new IndexWriterConfig().setCodec(TestUtil.alwaysKnnVectorsFormat(format)))) {
                for (int d = 0; d < 20; d++) {
                    float[] v = new float[dims];
                    for (int i = 0; i < dims; i++) {
                        v[i] = random().nextFloat() - 0.5f;
                    }
                    Document doc = new Document();
                    doc.add(new KnnFloatVectorField("v", v, VectorSimilarityFunction.EUCLIDEAN));
                    writer.addDocument(doc);
                }
            }
            try (DirectoryReader reader = DirectoryReader.open(dir)) {
                float[] query = new float[dims];
                query[0] = 1;
                TopDocs hits = getOnlyLeafReader(reader)
                        .searchNearestVectors(
                                "v", query, 5, AcceptDocs.fromLiveDocs(null, reader.maxDoc()), Integer.MAX_VALUE);
                assertEquals(5, hits.scoreDocs.length);
            }
        }
    }

    public void testBinary() throws IOException {
        assertTrue(new BinaryHnswVectorsFormat().getMaxDimensions("v") >= 4096);
        indexAndSearch(new BinaryHnswVectorsFormat(
                HnswParameters.DEFAULT, new BinaryCodeOptions(random().nextBoolean(), true)));
    }

    public void testFloat() throws IOException {
        assertTrue(new FloatHnswVectorsFormat().getMaxDimensions("v") >= 4096);
        indexAndSearch(new FloatHnswVectorsFormat());
    }

    public void testInvalidGraphParameters() {
        expectThrows(IllegalArgumentException.class, () -> new HnswParameters(0, 100));
        expectThrows(IllegalArgumentException.class, () -> new HnswParameters(16, 0));
        expectThrows(IllegalArgumentException.class, () -> new HnswParameters(513, 100));
    }
}
