package dev.compress.plugin.durability;

import static org.opensearch.test.hamcrest.OpenSearchAssertions.assertAcked;
import static org.opensearch.test.hamcrest.OpenSearchAssertions.assertNoFailures;

import dev.compress.codec.binary.BinaryHnswVectorsFormat;
import dev.compress.codec.floats.FloatHnswVectorsFormat;
import dev.compress.plugin.CompressClusterTestCase;
import dev.compress.plugin.inference.EvictModelAction;
import dev.compress.plugin.inference.EvictModelRequest;
import dev.compress.plugin.model.ModelIndex;
import dev.compress.plugin.model.ModelState;
import dev.compress.plugin.query.CompressedKnnQueryBuilder;
import dev.compress.plugin.query.Hit;
import dev.compress.plugin.query.RescoreOptions;
import dev.compress.training.inference.CpuEncoders;
import dev.compress.training.inference.Encoder;
import dev.compress.training.model.ModelArtifact;
import dev.compress.training.model.ModelFileTests;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.opensearch.action.admin.cluster.snapshots.create.CreateSnapshotResponse;
import org.opensearch.action.admin.cluster.snapshots.restore.RestoreSnapshotResponse;
import org.opensearch.action.bulk.BulkRequestBuilder;
import org.opensearch.action.get.GetResponse;
import org.opensearch.action.support.WriteRequest;
import org.opensearch.common.settings.Settings;
import org.opensearch.common.xcontent.XContentType;
import org.opensearch.core.common.bytes.BytesArray;
import org.opensearch.index.query.QueryBuilder;
import org.opensearch.snapshots.SnapshotState;
import org.opensearch.test.OpenSearchIntegTestCase;

/**
 * Snapshot and restore, through an {@code fs} repository, of an index with {@code compressed_vector}
 * fields filled through a {@code compress} pipeline, together with the model index and the pipeline
 * (cluster state): everything comes back, searches answer the same ids and scores, and the model
 * serves queries and ingest again. Restored without its model, the index still answers queries that
 * need none, and those that do get a 404 naming the model. Every copy passes CheckIndex after the
 * restore, and each shard runs it on start as well ({@code index.shard.check_on_startup}).
 */
@OpenSearchIntegTestCase.ClusterScope(scope = OpenSearchIntegTestCase.Scope.TEST, numDataNodes = 2, numClientNodes = 0)
public class SnapshotRestoreTests extends CompressClusterTestCase {

    private static final String INDEX = "docs";
    private static final String MODEL = "adapter";
    private static final String PIPELINE = "adapt";
    private static final String REPO = "backups";
    private static final int INPUT_DIM = 32;
    private static final int DOCS = 300;

    private ModelArtifact artifact;

    /** Model 32 -> {8, 16}; a pipeline that adapts {@code raw} into float {@code emb} and truncates it into binary {@code bits}. */
    private void setUpModelPipelineAndIndex(Random random) {
        artifact = ModelFileTests.sampleModel(11, INPUT_DIM, 48, 16);
        storeModel(MODEL, artifact, ModelState.CREATED);
        assertAcked(client().admin()
                .cluster()
                .preparePutPipeline(
                        PIPELINE,
                        new BytesArray("{\"processors\":["
                                + "{\"compress\":{\"model_id\":\"" + MODEL
                                + "\",\"field\":\"raw\",\"target_field\":\"emb\"}},"
                                + "{\"compress\":{\"truncate_to\":16,\"field\":\"raw\",\"target_field\":\"bits\"}}]}"),
                        XContentType.JSON)
                .get());
        assertAcked(client().admin()
                .indices()
                .prepareCreate(INDEX)
                .setSettings(Settings.builder()
                        .put("index.number_of_shards", 2)
                        .put("index.number_of_replicas", 1)
                        .put("index.compress", true)
                        .put("index.shard.check_on_startup", true))
                .setMapping("{\"properties\":{"
                        + "\"emb\":{\"type\":\"compressed_vector\",\"dimension\":16,\"encoding\":\"float\"},"
                        + "\"bits\":{\"type\":\"compressed_vector\",\"dimension\":16,\"encoding\":\"binary\"}}}"));
        BulkRequestBuilder bulk = client().prepareBulk().setRefreshPolicy(WriteRequest.RefreshPolicy.IMMEDIATE);
        float[][] raw = gaussian(random, DOCS, INPUT_DIM);
        for (int i = 0; i < DOCS; i++) {
            bulk.add(client().prepareIndex(INDEX)
                    .setId(Integer.toString(i))
                    .setPipeline(PIPELINE)
                    .setSource(Map.of("raw", raw[i])));
        }
        assertNoFailures(bulk.get());
        ensureGreen(INDEX);
    }

    /**
     * Searches whose answers must survive: the model at query time, a hand-adapted vector, and the
     * rescored binary field. Candidates cover every document of a shard, so each copy answers alike.
     */
    private List<QueryBuilder> queries(Random random) {
        Encoder encoder = CpuEncoders.forServing(artifact, 16);
        List<QueryBuilder> queries = new ArrayList<>();
        for (float[] q : gaussian(random, 4, INPUT_DIM)) {
            queries.add(knn("emb", q).modelId(MODEL).build());
            queries.add(knn("emb", encoder.encode(q)).build());
            queries.add(knn("bits", Arrays.copyOf(q, 16))
                    .rescore(new RescoreOptions(true, 30f))
                    .build());
        }
        return queries;
    }

    private static CompressedKnnQueryBuilder.Builder knn(String field, float[] vector) {
        return CompressedKnnQueryBuilder.builder()
                .field(field)
                .vector(vector)
                .k(10)
                .numCandidates(DOCS);
    }

    private static List<List<Hit>> answers(List<QueryBuilder> queries) {
        List<List<Hit>> answers = new ArrayList<>();
        for (QueryBuilder query : queries) {
            answers.add(Hit.of(
                    client().prepareSearch(INDEX).setQuery(query).setSize(10).get()));
        }
        return answers;
    }

    private void snapshot(String... indices) {
        assertAcked(client().admin()
                .cluster()
                .preparePutRepository(REPO)
                .setType("fs")
                .setSettings(Settings.builder().put("location", randomRepoPath())));
        CreateSnapshotResponse created = client().admin()
                .cluster()
                .prepareCreateSnapshot(REPO, "snap")
                .setIndices(indices)
                .setIncludeGlobalState(true)
                .setWaitForCompletion(true)
                .get();
        assertEquals(SnapshotState.SUCCESS, created.getSnapshotInfo().state());
        assertEquals(
                created.getSnapshotInfo().totalShards(),
                created.getSnapshotInfo().successfulShards());
    }

    /**
     * Deletes the pipeline, then the model through the API (which refuses while a pipeline uses it, and
     * empties every node's cache), then the index.
     */
    private void deleteEverything() throws IOException {
        assertAcked(client().admin().cluster().prepareDeletePipeline(PIPELINE).get());
        restCall("DELETE", "/_plugins/compress/models/" + MODEL, null);
        assertAcked(client().admin().indices().prepareDelete(INDEX));
    }

    private void restore(String... indices) {
        RestoreSnapshotResponse restored = client().admin()
                .cluster()
                .prepareRestoreSnapshot(REPO, "snap")
                .setIndices(indices)
                .setRestoreGlobalState(true)
                .setWaitForCompletion(true)
                .get();
        assertEquals(0, restored.getRestoreInfo().failedShards());
        ensureGreen(indices);
    }

    public void testIndexModelAndPipelineComeBackWithTheSameAnswers() throws Exception {
        Random random = new Random(randomLong());
        setUpModelPipelineAndIndex(random);
        List<QueryBuilder> queries = queries(random);
        List<List<Hit>> before = answers(queries);
        GetResponse doc7 = client().prepareGet(INDEX, "7").get();
        snapshot(INDEX, ModelIndex.NAME);

        deleteEverything();
        assertAcked(client().admin().indices().prepareDelete(ModelIndex.NAME));
        restore(INDEX, ModelIndex.NAME);

        assertEquals(
                DOCS,
                client().prepareSearch(INDEX)
                        .setSize(0)
                        .get()
                        .getHits()
                        .getTotalHits()
                        .value());
        assertEquals(
                doc7.getSourceAsMap(), client().prepareGet(INDEX, "7").get().getSourceAsMap());
        assertEquals(
                "created",
                restCall("GET", "/_plugins/compress/models/" + MODEL, null).get("state"));
        List<List<Hit>> after = answers(queries);
        for (int i = 0; i < queries.size(); i++) {
            assertEquals(queries.get(i).toString(), 10, after.get(i).size());
            Hit.assertSameHits(before.get(i), after.get(i), 1e-6f);
        }

        // the restored pipeline adapts through the restored model
        float[] raw = gaussian(random, 1, INPUT_DIM)[0];
        restCall(
                "PUT",
                "/" + INDEX + "/_doc/new?pipeline=" + PIPELINE + "&refresh=true",
                "{\"raw\":" + Arrays.toString(raw) + "}");
        @SuppressWarnings("unchecked")
        List<Number> emb = (List<Number>)
                client().prepareGet(INDEX, "new").get().getSourceAsMap().get("emb");
        float[] expected = CpuEncoders.forServing(artifact, 16).encode(raw);
        for (int j = 0; j < expected.length; j++) {
            assertEquals(expected[j], emb.get(j).floatValue(), 1e-6f);
        }

        assertEquals(
                "the checked segments were written by our formats",
                Set.of(BinaryHnswVectorsFormat.NAME, FloatHnswVectorsFormat.NAME),
                CommittedShards.assertCheckIndexClean(internalCluster(), INDEX, createTempDir()));
    }

    public void testIndexRestoredWithoutItsModelNamesTheModelInA404() throws Exception {
        Random random = new Random(randomLong());
        setUpModelPipelineAndIndex(random);
        List<QueryBuilder> queries = queries(random);
        List<List<Hit>> before = answers(queries);
        snapshot(INDEX);

        deleteEverything();
        restore(INDEX);
        assertMissingModelIs404(queries, before, random);

        // the same without any model index at all, as in a cluster that never had one; caches are emptied by hand,
        // since deleting the index, unlike deleting the model, does not tell them
        assertAcked(client().admin().indices().prepareDelete(ModelIndex.NAME));
        client().execute(EvictModelAction.INSTANCE, new EvictModelRequest(MODEL))
                .actionGet();
        assertMissingModelIs404(queries, before, random);

        CommittedShards.assertCheckIndexClean(internalCluster(), INDEX, createTempDir());
    }

    /**
     * A restore that would change {@code index.compress} is refused before it creates anything: the restored
     * index would keep mappings its settings refuse, and none of its shards would start.
     */
    public void testRestoreThatChangesIndexCompressIsA400() throws Exception {
        setUpModelPipelineAndIndex(new Random(randomLong()));
        snapshot(INDEX);
        String restore = "/_snapshot/" + REPO + "/snap/_restore?wait_for_completion=true";
        String renamed = "\"indices\":\"" + INDEX + "\",\"rename_pattern\":\"(.+)\",\"rename_replacement\":\"copy-$1\"";
        for (String change : List.of(
                "\"index_settings\":{\"index.compress\":false}",
                "\"index_settings\":{\"index\":{\"compress\":\"true\"}}",
                "\"index_settings\":{\"compress\":false}")) {
            String error = restError(400, "POST", restore, "{" + renamed + "," + change + "}");
            assertTrue(error, error.contains("cannot set [index.compress] on restore"));
        }
        for (String ignored : List.of("index.compress", "index.*", "*compress")) {
            String error = restError(
                    400, "POST", restore, "{" + renamed + ",\"ignore_index_settings\":[\"" + ignored + "\"]}");
            assertTrue(
                    error,
                    error.contains(
                            "cannot ignore [index.compress] on restore (ignore_index_settings [" + ignored + "])"));
        }
        assertFalse(indexExists("copy-" + INDEX));

        // other settings may still change, and the copy starts and answers
        restCall(
                "POST",
                restore,
                "{" + renamed + ",\"index_settings\":{\"index.number_of_replicas\":0},"
                        + "\"ignore_index_settings\":[\"index.shard.check_on_startup\"]}");
        ensureGreen("copy-" + INDEX);
        assertEquals(
                DOCS,
                client().prepareSearch("copy-" + INDEX)
                        .setSize(0)
                        .get()
                        .getHits()
                        .getTotalHits()
                        .value());
        float[] query = gaussian(new Random(randomLong()), 1, 16)[0];
        assertEquals(
                10,
                Hit.of(client().prepareSearch("copy-" + INDEX)
                                .setQuery(knn("bits", query).build())
                                .setSize(10)
                                .get())
                        .size());
    }

    private void assertMissingModelIs404(List<QueryBuilder> queries, List<List<Hit>> before, Random random)
            throws IOException {
        for (int i = 0; i < queries.size(); i++) {
            CompressedKnnQueryBuilder query = (CompressedKnnQueryBuilder) queries.get(i);
            if (query.modelId() == null) {
                Hit.assertSameHits(
                        before.get(i),
                        Hit.of(client().prepareSearch(INDEX)
                                .setQuery(query)
                                .setSize(10)
                                .get()),
                        1e-6f);
            } else {
                String error = restError(404, "POST", "/" + INDEX + "/_search", "{\"query\":" + query + "}");
                assertTrue(error, error.contains("model [" + MODEL + "] does not exist"));
            }
        }
        String raw = Arrays.toString(gaussian(random, 1, INPUT_DIM)[0]);
        String error = restError(404, "PUT", "/" + INDEX + "/_doc/late?pipeline=" + PIPELINE, "{\"raw\":" + raw + "}");
        assertTrue(error, error.contains("model [" + MODEL + "] does not exist"));
        Map<String, Object> bulk = restCall(
                "POST",
                "/" + INDEX + "/_bulk?pipeline=" + PIPELINE,
                "{\"index\":{\"_id\":\"late\"}}\n{\"raw\":" + raw + "}\n");
        @SuppressWarnings("unchecked")
        Map<String, Object> item =
                (Map<String, Object>) ((Map<String, Object>) ((List<?>) bulk.get("items")).get(0)).get("index");
        assertEquals(item.toString(), 404, item.get("status"));
        assertTrue(item.toString(), item.get("error").toString().contains("model [" + MODEL + "] does not exist"));
    }
}
