package dev.compress.plugin.codec;

import static org.opensearch.test.hamcrest.OpenSearchAssertions.assertAcked;
import static org.opensearch.test.hamcrest.OpenSearchAssertions.assertNoFailures;

import dev.compress.plugin.CompressClusterTestCase;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.apache.lucene.index.IndexCommit;
import org.apache.lucene.index.IndexFileNames;
import org.apache.lucene.index.SegmentCommitInfo;
import org.apache.lucene.index.SegmentInfos;
import org.apache.lucene.store.Directory;
import org.opensearch.action.bulk.BulkRequestBuilder;
import org.opensearch.action.get.GetResponse;
import org.opensearch.action.search.SearchResponse;
import org.opensearch.action.support.WriteRequest;
import org.opensearch.common.concurrent.GatedCloseable;
import org.opensearch.common.settings.Settings;
import org.opensearch.index.IndexService;
import org.opensearch.index.query.QueryBuilders;
import org.opensearch.index.shard.IndexShard;
import org.opensearch.indices.IndicesService;
import org.opensearch.search.SearchHit;
import org.opensearch.test.OpenSearchIntegTestCase;

/**
 * Vectors out of {@code _source} on a cluster: an index with {@code index.compress.derived_source}
 * (the default) answers GET, search hits and updates with the vectors it was sent, on primaries and
 * on replicas recovered from them, before and after a merge, and after a snapshot is restored,
 * while its vectors are stored once;
 * a field that user source filtering removed stays removed; fields whose floats the codec does not
 * keep (codes-only binary, nested) keep their vectors in {@code _source}.
 */
@OpenSearchIntegTestCase.ClusterScope(scope = OpenSearchIntegTestCase.Scope.TEST, numDataNodes = 2, numClientNodes = 0)
public class DerivedSourceTests extends CompressClusterTestCase {

    private static final int DIM = 64;
    private static final int DOCS = 150;
    private static final String MAPPING = "{\"properties\":{"
            + "\"f\":{\"type\":\"compressed_vector\",\"dimension\":64},"
            + "\"b\":{\"type\":\"compressed_vector\",\"dimension\":64,\"encoding\":\"binary\"},"
            + "\"codes\":{\"type\":\"compressed_vector\",\"dimension\":64,\"encoding\":\"binary\",\"rescore_vectors\":false},"
            + "\"obj\":{\"properties\":{\"g\":{\"type\":\"compressed_vector\",\"dimension\":64,\"similarity\":\"l2\"}}},"
            + "\"chunks\":{\"type\":\"nested\",\"properties\":{\"n\":{\"type\":\"compressed_vector\",\"dimension\":64}}},"
            + "\"title\":{\"type\":\"keyword\"}}}";

    // not lucene_default: the test framework sets Lucene's default codec to a random one, whose stored fields
    // are not Lucene's own, so here it keeps vectors in _source; DerivedSourceOnRealNodeIT covers it
    private final String codec = randomFrom("default", "best_compression");

    private void createIndex(String name, boolean derived, String mapping) {
        assertAcked(client().admin()
                .indices()
                .prepareCreate(name)
                .setSettings(Settings.builder()
                        .put("index.number_of_shards", 1)
                        .put("index.number_of_replicas", 0)
                        .put("index.compress", true)
                        .put("index.compress.derived_source", derived)
                        // the test framework draws a random Lucene codec otherwise
                        .put("index.codec", codec))
                .setMapping(mapping));
    }

    /** Sources as sent: some documents lack {@code f}, some have {@code f: null}. */
    private static Map<String, Map<String, Object>> sources(Random random) {
        Map<String, Map<String, Object>> sources = new HashMap<>();
        for (int i = 0; i < DOCS; i++) {
            Map<String, Object> doc = new HashMap<>();
            doc.put("title", "t" + i);
            if (i % 10 == 1) {
                doc.put("f", null);
            } else if (i % 10 != 2) {
                doc.put("f", gaussian(random, 1, DIM)[0]);
            }
            doc.put("b", gaussian(random, 1, DIM)[0]);
            doc.put("codes", gaussian(random, 1, DIM)[0]);
            doc.put("obj", Map.of("g", gaussian(random, 1, DIM)[0]));
            doc.put(
                    "chunks",
                    List.of(Map.of("n", gaussian(random, 1, DIM)[0]), Map.of("n", gaussian(random, 1, DIM)[0])));
            sources.put(Integer.toString(i), doc);
        }
        return sources;
    }

    private static void index(String name, Map<String, Map<String, Object>> sources) {
        BulkRequestBuilder bulk = client().prepareBulk().setRefreshPolicy(WriteRequest.RefreshPolicy.IMMEDIATE);
        sources.forEach(
                (id, doc) -> bulk.add(client().prepareIndex(name).setId(id).setSource(doc)));
        assertNoFailures(bulk.get());
    }

    public void testSourcesReadBackAsSentWithVectorsStoredOnce() throws Exception {
        Random random = new Random(randomLong());
        Map<String, Map<String, Object>> sent = sources(random);
        createIndex("derived", true, MAPPING);
        createIndex("stored", false, MAPPING);
        index("derived", sent);
        index("stored", sent);

        assertGetsAsSent("derived", sent, null);
        assertSearchHitsAsSent("derived", sent, null);

        // a replica recovered from the primary's files, then more writes replayed to both copies
        assertAcked(client().admin()
                .indices()
                .prepareUpdateSettings("derived")
                .setSettings(Settings.builder().put("index.number_of_replicas", 1)));
        ensureGreen("derived");
        Map<String, Map<String, Object>> more = new HashMap<>();
        sources(random).forEach((id, doc) -> more.put("more" + id, doc));
        index("derived", more);
        sent.putAll(more);
        assertGetsAsSent("derived", sent, "_replica");
        assertSearchHitsAsSent("derived", sent, "_primary");
        assertSearchHitsAsSent("derived", sent, "_replica");

        // a partial update rewrites the document from its derived source
        assertEquals(
                org.opensearch.core.rest.RestStatus.OK,
                client().prepareUpdate("derived", "5")
                        .setDoc(Map.of("title", "changed"))
                        .get()
                        .status());
        sent.get("5").put("title", "changed");
        client().admin().indices().prepareRefresh("derived").get();
        assertGetsAsSent("derived", sent, null);

        assertEquals(
                0,
                client().admin()
                        .indices()
                        .prepareForceMerge("derived")
                        .setMaxNumSegments(1)
                        .get()
                        .getFailedShards());
        client().admin().indices().prepareRefresh("derived").get();
        assertGetsAsSent("derived", sent, "_primary");
        assertGetsAsSent("derived", sent, "_replica");
    }

    public void testVectorsAreStoredOnce() {
        Random random = new Random(randomLong());
        Map<String, Map<String, Object>> sent = sources(random);
        String flat = "{\"properties\":{\"f\":{\"type\":\"compressed_vector\",\"dimension\":64},"
                + "\"b\":{\"type\":\"compressed_vector\",\"dimension\":64,\"encoding\":\"binary\"},"
                + "\"title\":{\"type\":\"keyword\"}}}";
        sent.values().forEach(doc -> doc.keySet().retainAll(List.of("f", "b", "title")));
        createIndex("derived", true, flat);
        createIndex("stored", false, flat);
        index("derived", sent);
        index("stored", sent);
        for (String index : List.of("derived", "stored")) {
            client().admin()
                    .indices()
                    .prepareForceMerge(index)
                    .setMaxNumSegments(1)
                    .get();
        }
        Map<String, Long> derived = fileBytes("derived");
        Map<String, Long> stored = fileBytes("stored");
        // the floats as JSON text are most of what the stored index keeps in its stored fields,
        // compressed or not; the vector files hold the same vectors in both indexes
        assertTrue("derived " + derived + " stored " + stored, derived.get("fdt") * 3 < stored.get("fdt"));
        // equal up to a few files' headers, footers and alignment padding, whose count follows the segments each
        // copy committed; a vector more or less would differ by a whole vector, 256 bytes (64 floats)
        for (String vectorFile : List.of("vec", "vbf")) {
            long difference = Math.abs(stored.get(vectorFile) - derived.get(vectorFile));
            assertTrue(vectorFile + ": stored " + stored + " derived " + derived, difference < 256);
        }
        assertGetsAsSent("derived", sent, null);
    }

    /** A snapshot copies the segment files, placeholders and all; the restored index reads the vectors back. */
    public void testSnapshotRestoresTheVectors() {
        Map<String, Map<String, Object>> sent = sources(new Random(randomLong()));
        createIndex("derived", true, MAPPING);
        index("derived", sent);
        client().admin().indices().prepareFlush("derived").get();
        assertAcked(client().admin()
                .cluster()
                .preparePutRepository("backups")
                .setType("fs")
                .setSettings(Settings.builder().put("location", randomRepoPath())));
        var created = client().admin()
                .cluster()
                .prepareCreateSnapshot("backups", "snap")
                .setIndices("derived")
                .setWaitForCompletion(true)
                .get();
        assertEquals(
                created.getSnapshotInfo().totalShards(),
                created.getSnapshotInfo().successfulShards());
        assertAcked(client().admin().indices().prepareDelete("derived"));
        var restored = client().admin()
                .cluster()
                .prepareRestoreSnapshot("backups", "snap")
                .setIndices("derived")
                .setWaitForCompletion(true)
                .get();
        assertEquals(0, restored.getRestoreInfo().failedShards());
        ensureGreen("derived");
        assertGetsAsSent("derived", sent, null);
        assertSearchHitsAsSent("derived", sent, null);
    }

    /** What the user's own source filtering removed is not put back. */
    public void testSourceExcludesStayExcluded() {
        Random random = new Random(randomLong());
        createIndex(
                "filtered",
                true,
                "{\"_source\":{\"excludes\":[\"f\"]},\"properties\":{"
                        + "\"f\":{\"type\":\"compressed_vector\",\"dimension\":64},"
                        + "\"b\":{\"type\":\"compressed_vector\",\"dimension\":64,\"encoding\":\"binary\"}}}");
        Map<String, Map<String, Object>> sent = new HashMap<>();
        for (int i = 0; i < 20; i++) {
            Map<String, Object> doc = new HashMap<>();
            doc.put("f", gaussian(random, 1, DIM)[0]);
            doc.put("b", gaussian(random, 1, DIM)[0]);
            sent.put(Integer.toString(i), doc);
        }
        index("filtered", sent);
        sent.values().forEach(doc -> doc.remove("f"));
        assertGetsAsSent("filtered", sent, null);
        // source filtering makes OpenSearch keep _recovery_source, and wrap the segments it merges
        client().admin()
                .indices()
                .prepareForceMerge("filtered")
                .setMaxNumSegments(1)
                .get();
        client().admin().indices().prepareRefresh("filtered").get();
        assertGetsAsSent("filtered", sent, null);
    }

    /**
     * Bytes per file extension in the last commit of every copy of the index, summed over segments and
     * over the files inside compound files. The segments stats API keeps one file per extension and
     * segment, and a segment holds one {@code .vec} per vector format, so it cannot be used here.
     */
    private static Map<String, Long> fileBytes(String index) {
        client().admin().indices().prepareFlush(index).get();
        Map<String, Long> bytes = new TreeMap<>();
        for (IndicesService indices : internalCluster().getInstances(IndicesService.class)) {
            for (IndexService service : indices) {
                if (service.index().getName().equals(index) == false) {
                    continue;
                }
                for (IndexShard shard : service) {
                    addCommittedFileBytes(shard, bytes);
                }
            }
        }
        assertFalse("no copy of [" + index + "] found", bytes.isEmpty());
        return bytes;
    }

    private static void addCommittedFileBytes(IndexShard shard, Map<String, Long> bytes) {
        shard.store().incRef();
        try (GatedCloseable<IndexCommit> commit = shard.acquireLastIndexCommit(true)) {
            Directory dir = shard.store().directory();
            SegmentInfos segments = SegmentInfos.readCommit(dir, commit.get().getSegmentsFileName());
            for (SegmentCommitInfo segment : segments) {
                for (String file : segment.files()) {
                    bytes.merge(IndexFileNames.getExtension(file), dir.fileLength(file), Long::sum);
                }
                if (segment.info.getUseCompoundFile()) {
                    try (Directory compound =
                            segment.info.getCodec().compoundFormat().getCompoundReader(dir, segment.info)) {
                        for (String file : compound.listAll()) {
                            bytes.merge(IndexFileNames.getExtension(file), compound.fileLength(file), Long::sum);
                        }
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            shard.store().decRef();
        }
    }

    private static void assertGetsAsSent(String index, Map<String, Map<String, Object>> sent, String preference) {
        for (Map.Entry<String, Map<String, Object>> e : sent.entrySet()) {
            var get = client().prepareGet(index, e.getKey());
            if (preference != null) {
                get.setPreference(preference);
            }
            GetResponse response = get.get();
            assertTrue(e.getKey(), response.isExists());
            assertSameSource(e.getKey(), e.getValue(), response.getSourceAsMap());
        }
    }

    private static void assertSearchHitsAsSent(String index, Map<String, Map<String, Object>> sent, String preference) {
        var search = client().prepareSearch(index)
                .setQuery(QueryBuilders.matchAllQuery())
                .setSize(sent.size());
        if (preference != null) {
            search.setPreference(preference);
        }
        SearchResponse response = search.get();
        assertEquals(sent.size(), response.getHits().getHits().length);
        for (SearchHit hit : response.getHits().getHits()) {
            assertSameSource(hit.getId(), sent.get(hit.getId()), hit.getSourceAsMap());
        }
    }

    /** Equal maps, numbers compared as the float32 values the index holds. */
    private static void assertSameSource(String id, Object expected, Object actual) {
        if (expected instanceof float[] vector) {
            expected = floats(vector);
        }
        if (expected instanceof Map<?, ?> e) {
            assertTrue(id + ": " + actual, actual instanceof Map);
            Map<?, ?> a = (Map<?, ?>) actual;
            assertEquals(id + " keys", e.keySet(), a.keySet());
            e.forEach((k, v) -> assertSameSource(id + "." + k, v, a.get(k)));
        } else if (expected instanceof List<?> e) {
            assertTrue(id + ": " + actual, actual instanceof List);
            List<?> a = (List<?>) actual;
            assertEquals(id + " length", e.size(), a.size());
            for (int i = 0; i < e.size(); i++) {
                assertSameSource(id + "[" + i + "]", e.get(i), a.get(i));
            }
        } else if (expected instanceof Number n) {
            assertTrue(id + ": " + actual, actual instanceof Number);
            assertEquals(id, n.floatValue(), ((Number) actual).floatValue(), 0f);
        } else {
            assertEquals(id, expected, actual);
        }
    }

    private static List<Object> floats(float[] vector) {
        List<Object> values = new ArrayList<>(vector.length);
        for (float v : vector) {
            values.add(v);
        }
        return values;
    }
}
