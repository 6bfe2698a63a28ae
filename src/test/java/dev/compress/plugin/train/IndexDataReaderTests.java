package dev.compress.plugin.train;

import dev.compress.training.data.MappedVectors;
import dev.compress.training.data.Qrels;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.opensearch.action.bulk.BulkRequestBuilder;
import org.opensearch.action.bulk.BulkResponse;
import org.opensearch.action.support.WriteRequest;
import org.opensearch.common.settings.Settings;
import org.opensearch.test.OpenSearchSingleNodeTestCase;

/**
 * A corpus read from an index on one in-JVM node into a {@link CorpusFile}, as a training job reads
 * it: every vector arrives, in {@code _id} order, across pages and shards; a document whose vector
 * has the wrong length fails the read.
 */
public class IndexDataReaderTests extends OpenSearchSingleNodeTestCase {

    private static final String INDEX = "corpus";
    private static final int DIM = 5;
    /** The reader pages in {@code _id} order, which OpenSearch warns about on every page. */
    private static final String ID_SORT_WARNING =
            "Loading the fielddata on the _id field is deprecated and will be removed in future versions. "
                    + "If you require sorting or aggregating on this field you should also include the id in the body of your documents, "
                    + "and map this field as a keyword field that has [doc_values] enabled";

    /** Indexes {@code vectors} under their ids; a null vector makes a document without one. */
    private void index(Map<String, float[]> vectors) {
        client().admin()
                .indices()
                .prepareCreate(INDEX)
                .setSettings(Settings.builder().put("index.number_of_shards", 2))
                .setMapping("vector", "type=float", "other", "type=keyword")
                .get();
        BulkRequestBuilder bulk = client().prepareBulk(INDEX).setRefreshPolicy(WriteRequest.RefreshPolicy.IMMEDIATE);
        vectors.forEach((id, v) -> bulk.add(
                client().prepareIndex().setId(id).setSource(v == null ? Map.of("other", id) : Map.of("vector", v))));
        BulkResponse indexed = bulk.get();
        assertFalse(indexed.buildFailureMessage(), indexed.hasFailures());
    }

    /** 2,345 documents span three pages; multiples of 1/1024 survive JSON exactly, so the file must hold them bit for bit. */
    public void testCorpusStreamsIntoItsFileInIdOrder() throws IOException {
        Map<String, float[]> vectors = new TreeMap<>();
        Map<String, float[]> all = new TreeMap<>();
        for (int i = 0; i < 2345; i++) {
            String id = "d" + i;
            float[] v = null;
            if (i % 100 != 7) {
                v = new float[DIM];
                for (int j = 0; j < DIM; j++) {
                    v[j] = (random().nextInt(1 << 20) - (1 << 19)) / 1024f;
                }
                vectors.put(id, v);
            }
            all.put(id, v);
        }
        index(all);
        IndexDataReader reader = new IndexDataReader(client());
        assertEquals("documents with and without a vector", all.size(), reader.count(INDEX));
        try (CorpusFile file = CorpusFile.create(createTempDir(), DIM)) {
            reader.vectors(INDEX, IndexDataReader.ID, "vector", DIM, file::append);
            MappedVectors corpus = file.map();
            assertEquals(
                    "ids in the _id order of the reads (a TreeMap's)",
                    vectors.keySet().stream().toList(),
                    corpus.ids());
            for (int r = 0; r < corpus.size(); r++) {
                assertArrayEquals(corpus.id(r), vectors.get(corpus.id(r)), corpus.row(r), 0f);
            }
        }
        allowedWarnings(ID_SORT_WARNING);
    }

    /**
     * The same judgments loaded twice, under ids drawn at random and in another order, read as the same
     * qrels in the same order: queries, and each query's documents, by id.
     */
    public void testJudgmentsComeInIdOrderWhateverTheirDocumentIds() {
        List<String[]> rows = new ArrayList<>();
        for (int q = 0; q < 40; q++) {
            for (int d = 0; d < 1 + q % 4; d++) {
                rows.add(new String[] {"q" + (q * 7919 % 40), "doc" + (d * 31 + q) % 50, String.valueOf(d % 3)});
            }
        }
        Qrels first = judgments("judgments-a", rows);
        List<String[]> shuffled = new ArrayList<>(rows);
        Collections.shuffle(shuffled, random());
        Qrels second = judgments("judgments-b", shuffled);
        List<String> queries = new ArrayList<>(first.queryIds());
        assertEquals(queries.stream().sorted().toList(), queries);
        assertEquals(queries, new ArrayList<>(second.queryIds()));
        for (String q : queries) {
            List<String> docs = new ArrayList<>(first.judgments(q).keySet());
            assertEquals(docs.stream().sorted().toList(), docs);
            assertEquals(
                    q,
                    new ArrayList<>(first.judgments(q).entrySet()),
                    new ArrayList<>(second.judgments(q).entrySet()));
        }
        allowedWarnings(ID_SORT_WARNING);
    }

    /** A pair judged more than once, with different grades, keeps its highest, whichever row is read first. */
    public void testAPairJudgedTwiceKeepsItsHighestGrade() {
        List<String[]> rows = new ArrayList<>();
        for (int q = 0; q < 20; q++) {
            for (int grade : new int[] {1, 0, 2}) {
                rows.add(new String[] {"q" + q, "doc" + q, String.valueOf(grade)});
            }
        }
        Collections.shuffle(rows, random());
        Qrels read = judgments("judgments-twice", rows);
        assertEquals(20, read.queryIds().size());
        for (String q : read.queryIds()) {
            assertEquals(q, Map.of("doc" + q.substring(1), 2), read.judgments(q));
        }
        allowedWarnings(ID_SORT_WARNING);
    }

    /** Loads judgment rows (query, document, rating) into {@code index} under random ids and reads them back. */
    private Qrels judgments(String index, List<String[]> rows) {
        client().admin()
                .indices()
                .prepareCreate(index)
                .setSettings(Settings.builder().put("index.number_of_shards", 2))
                .setMapping("query_id", "type=keyword", "doc_id", "type=keyword", "rating", "type=integer")
                .get();
        BulkRequestBuilder bulk = client().prepareBulk(index).setRefreshPolicy(WriteRequest.RefreshPolicy.IMMEDIATE);
        for (String[] row : rows) {
            bulk.add(client().prepareIndex()
                    .setSource(Map.of("query_id", row[0], "doc_id", row[1], "rating", Integer.parseInt(row[2]))));
        }
        BulkResponse indexed = bulk.get();
        assertFalse(indexed.buildFailureMessage(), indexed.hasFailures());
        TrainSpec spec = TrainSpec.parse(Map.of(
                "method",
                "pca",
                "dimensions",
                2,
                "corpus",
                Map.of("index", INDEX, "vector_field", "vector"),
                "queries",
                Map.of("index", "queries"),
                "judgments",
                Map.of("index", index)));
        return new IndexDataReader(client()).judgments(spec).all();
    }

    /** A double field keeps what a float cannot: such a vector fails the read instead of training on Infinity. */
    public void testAVectorBeyondFloatFailsTheRead() throws IOException {
        client().admin()
                .indices()
                .prepareCreate(INDEX)
                .setMapping("vector", "type=double")
                .get();
        client().prepareIndex(INDEX)
                .setId("big")
                .setSource(Map.of("vector", new double[] {1, 1e39, 0, 0, 0}))
                .setRefreshPolicy(WriteRequest.RefreshPolicy.IMMEDIATE)
                .get();
        client().prepareIndex(INDEX)
                .setId("long")
                .setSource(Map.of("vector", new double[] {3e19, 0, 0, 0, 0}))
                .setRefreshPolicy(WriteRequest.RefreshPolicy.IMMEDIATE)
                .get();
        IndexDataReader reader = new IndexDataReader(client());
        try (CorpusFile file = CorpusFile.create(createTempDir(), DIM)) {
            IllegalArgumentException e = expectThrows(
                    IllegalArgumentException.class,
                    () -> reader.vectors(INDEX, IndexDataReader.ID, "vector", DIM, file::append));
            assertEquals(
                    "document [big] of [corpus] has [1.0E39] at position 1 of [vector], not a finite float",
                    e.getMessage());
        }
        client().prepareDelete(INDEX, "big")
                .setRefreshPolicy(WriteRequest.RefreshPolicy.IMMEDIATE)
                .get();
        try (CorpusFile file = CorpusFile.create(createTempDir(), DIM)) {
            IllegalArgumentException e = expectThrows(
                    IllegalArgumentException.class,
                    () -> reader.vectors(INDEX, IndexDataReader.ID, "vector", DIM, file::append));
            assertTrue(
                    e.getMessage(),
                    e.getMessage().startsWith("document [long] of [corpus]: [vector] has length 3.0E19, above"));
        }
        allowedWarnings(ID_SORT_WARNING);
    }

    public void testAVectorOfTheWrongLengthFailsTheRead() throws IOException {
        index(Map.of("ok", new float[DIM], "short", new float[DIM - 2]));
        try (CorpusFile file = CorpusFile.create(createTempDir(), DIM)) {
            IllegalArgumentException e = expectThrows(
                    IllegalArgumentException.class,
                    () -> new IndexDataReader(client())
                            .vectors(INDEX, IndexDataReader.ID, "vector", DIM, file::append));
            assertEquals("document [short] of [corpus] has 3 values in [vector], expected 5", e.getMessage());
        }
        allowedWarnings(ID_SORT_WARNING);
    }
}
