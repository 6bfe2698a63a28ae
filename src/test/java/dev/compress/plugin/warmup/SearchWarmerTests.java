package dev.compress.plugin.warmup;

import dev.compress.codec.HnswParameters;
import dev.compress.codec.binary.BinaryCodeOptions;
import dev.compress.codec.binary.BinaryHnswVectorsFormat;
import dev.compress.codec.floats.FloatHnswVectorsFormat;
import dev.compress.codec.search.RescoringKnnQuery;
import java.io.IOException;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.lucene.codecs.KnnVectorsFormat;
import org.apache.lucene.codecs.lucene104.Lucene104Codec;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.KnnFloatVectorField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.VectorSimilarityFunction;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.QueryVisitor;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.store.Directory;
import org.opensearch.test.OpenSearchTestCase;

/**
 * Warmup's searches run on every kind of field our codec writes (binary with stored floats, codes
 * only, float), over several segments, as many as asked: fields without vectors take none and the
 * others split them evenly.
 */
public class SearchWarmerTests extends OpenSearchTestCase {

    private static final int DIMS = 24;

    public void testSearchesEveryFieldWithVectorsWithinTheBudget() throws IOException {
        try (Directory dir = newDirectory()) {
            index(dir);
            try (DirectoryReader reader = DirectoryReader.open(dir)) {
                assertTrue("several segments", reader.leaves().size() > 1);
                List<String> fields = List.of("binary", "codes", "empty", "float");

                CountingSearcher searcher = new CountingSearcher(reader);
                assertEquals(31, SearchWarmer.warm(searcher, fields, 31));
                assertEquals(
                        "the searches split among the fields with vectors",
                        Map.of("binary", 11, "codes", 10, "float", 10),
                        searcher.searches);
                assertEquals("every search finds k hits", 31 * SearchWarmer.K, searcher.hits);

                searcher = new CountingSearcher(reader);
                assertEquals(0, SearchWarmer.warm(searcher, fields, 0));
                assertEquals(0, SearchWarmer.warm(searcher, List.of("empty"), 100));
                assertEquals("a field alone takes them all", 7, SearchWarmer.warm(searcher, List.of("codes"), 7));
                assertEquals(Map.of("codes", 7), searcher.searches);
            }
        }
    }

    public void testSharesSplitEvenlyAndAddUp() {
        assertEquals(334, SearchWarmer.share(1000, 3, 0));
        assertEquals(333, SearchWarmer.share(1000, 3, 1));
        assertEquals(333, SearchWarmer.share(1000, 3, 2));
        for (int i = 0; i < 20; i++) {
            int total = random().nextInt(5000);
            int parts = 1 + random().nextInt(40);
            int sum = 0;
            for (int part = 0; part < parts; part++) {
                int share = SearchWarmer.share(total, parts, part);
                assertTrue(share == total / parts || share == total / parts + 1);
                sum += share;
            }
            assertEquals(total, sum);
        }
        assertEquals(1, SearchWarmer.share(1, 3, 0));
        assertEquals(0, SearchWarmer.share(1, 3, 1));
    }

    /** Counts the k-NN searches per field and the hits they found. */
    private static final class CountingSearcher extends IndexSearcher {
        final Map<String, Integer> searches = new TreeMap<>();
        int hits;

        CountingSearcher(IndexReader reader) {
            super(reader);
        }

        @Override
        public TopDocs search(Query query, int n) throws IOException {
            TopDocs found = super.search(query, n);
            Set<String> fields = new HashSet<>();
            query.visit(new QueryVisitor() {
                @Override
                public boolean acceptField(String field) {
                    fields.add(field);
                    return true;
                }
            });
            assertTrue(query.toString(), query instanceof RescoringKnnQuery);
            searches.merge(fields.iterator().next(), 1, Integer::sum);
            hits += found.scoreDocs.length;
            return found;
        }
    }

    private static void index(Directory dir) throws IOException {
        KnnVectorsFormat binary =
                new BinaryHnswVectorsFormat(HnswParameters.DEFAULT, new BinaryCodeOptions(true, true));
        KnnVectorsFormat codes =
                new BinaryHnswVectorsFormat(HnswParameters.DEFAULT, new BinaryCodeOptions(false, true));
        KnnVectorsFormat floats = new FloatHnswVectorsFormat(HnswParameters.DEFAULT);
        IndexWriterConfig config = new IndexWriterConfig()
                .setCodec(new Lucene104Codec() {
                    @Override
                    public KnnVectorsFormat getKnnVectorsFormatForField(String field) {
                        return switch (field) {
                            case "binary" -> binary;
                            case "codes" -> codes;
                            default -> floats;
                        };
                    }
                })
                .setMaxBufferedDocs(40)
                .setMergePolicy(newLogMergePolicy(100));
        try (IndexWriter writer = new IndexWriter(dir, config)) {
            for (int doc = 0; doc < 150; doc++) {
                Document document = new Document();
                for (String field : List.of("binary", "codes", "float")) {
                    if (random().nextInt(5) > 0) {
                        document.add(new KnnFloatVectorField(field, vector(), VectorSimilarityFunction.COSINE));
                    }
                }
                writer.addDocument(document);
            }
        }
    }

    private static float[] vector() {
        float[] v = new float[DIMS];
        for (int i = 0; i < DIMS; i++) {
            v[i] = (float) random().nextGaussian();
        }
        return v;
    }
}
