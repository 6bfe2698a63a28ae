package dev.compress.plugin.train;

import dev.compress.plugin.CompressPlugin;
import dev.compress.plugin.model.ModelIndex;
import dev.compress.plugin.model.ModelRecord;
import dev.compress.plugin.model.ModelState;
import dev.compress.plugin.model.action.CancelTrainingResponse;
import dev.compress.plugin.model.action.DeleteModelResponse;
import dev.compress.plugin.model.action.ModelActions;
import dev.compress.plugin.model.action.ModelIdRequest;
import java.io.IOException;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.opensearch.OpenSearchStatusException;
import org.opensearch.ResourceNotFoundException;
import org.opensearch.action.support.PlainActionFuture;
import org.opensearch.cluster.service.ClusterService;
import org.opensearch.common.settings.Settings;
import org.opensearch.common.xcontent.XContentHelper;
import org.opensearch.common.xcontent.XContentType;
import org.opensearch.core.rest.RestStatus;
import org.opensearch.core.xcontent.ToXContentObject;
import org.opensearch.plugins.Plugin;
import org.opensearch.test.OpenSearchIntegTestCase;

/**
 * The timed sweep fails models left {@code training} that no event sweep sees: one whose node is
 * not in the cluster, one of this node whose job never started. A model just created is left alone.
 * A document it cannot read is skipped, not the end of the sweep, and the API ends such models.
 */
@OpenSearchIntegTestCase.ClusterScope(scope = OpenSearchIntegTestCase.Scope.TEST, numDataNodes = 1, numClientNodes = 0)
public class TrainingSweepTests extends OpenSearchIntegTestCase {

    @Override
    protected Collection<Class<? extends Plugin>> nodePlugins() {
        return List.of(CompressPlugin.class);
    }

    @Override
    protected Settings nodeSettings(int nodeOrdinal) {
        return Settings.builder()
                .put(super.nodeSettings(nodeOrdinal))
                .put("compress.training.sweep_interval", "1s")
                .build();
    }

    /** A model document in {@code training} on {@code nodeId}, with no job behind it, in the current test's cluster. */
    static void createTraining(String id, String nodeId, long createdAt) {
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("state", ModelState.TRAINING.jsonName());
        doc.put("node_id", nodeId);
        doc.put("created_at", createdAt);
        createModel(id, doc);
    }

    /** A model document with {@code fields} as given, whatever their types (the mapping accepts them all). */
    private static void createModel(String id, Map<String, Object> fields) {
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("doc_type", "model");
        doc.put("model_id", id);
        doc.putAll(fields);
        PlainActionFuture<Void> created = PlainActionFuture.newFuture();
        internalCluster().getInstance(ModelIndex.class).create(id, doc, created);
        created.actionGet();
    }

    private static ModelRecord get(String id) {
        PlainActionFuture<ModelRecord> got = PlainActionFuture.newFuture();
        internalCluster().getInstance(ModelIndex.class).get(id, got);
        return got.actionGet();
    }

    public void testModelsWithNoJobBehindThemAreFailed() throws Exception {
        String local =
                internalCluster().getInstance(ClusterService.class).localNode().getId();
        long now = System.currentTimeMillis();
        // no node leaves and no node starts after these exist: only the timed sweep can see them
        createTraining("fresh", local, now);
        createTraining("of-a-gone-node", "gone-node", now);
        createTraining("never-started", local, now - TimeUnit.HOURS.toMillis(1));
        assertBusy(
                () -> {
                    ModelRecord gone = get("of-a-gone-node");
                    assertEquals(ModelState.FAILED, gone.state());
                    assertEquals("node [gone-node] left the cluster while training", gone.error());
                    ModelRecord orphan = get("never-started");
                    assertEquals(ModelState.FAILED, orphan.state());
                    assertEquals(
                            "node [" + local + "] is not running its job: it restarted, or the job never started",
                            orphan.error());
                },
                30,
                TimeUnit.SECONDS);
        // let several more sweeps run: a model inside its minute to start is left training
        Thread.sleep(3_000);
        assertEquals(ModelState.TRAINING, get("fresh").state());
    }

    /** The JSON body the REST layer sends for {@code response}. */
    private static Map<String, Object> json(ToXContentObject response) throws IOException {
        return XContentHelper.convertToMap(
                        XContentHelper.toXContent(response, XContentType.JSON, false), false, XContentType.JSON)
                .v2();
    }

    private static CancelTrainingResponse cancel(String id) {
        return client().execute(ModelActions.CANCEL, new ModelIdRequest(id, false))
                .actionGet();
    }

    /**
     * After a {@code kill -9}, documents the sweep could not read stopped every sweep at the first of
     * them, and their models, and those after them, stayed {@code training} for good: {@code _cancel}
     * answered 202 and changed nothing, DELETE answered 409. Now the sweep skips and counts them and
     * goes on; {@code _cancel} fails a model whose node runs no job of it at once, DELETE removes one.
     */
    public void testUnreadableModelsAreSkippedAndModelsWithoutAJobCanBeEnded() throws Exception {
        String local =
                internalCluster().getInstance(ClusterService.class).localNode().getId();
        long now = System.currentTimeMillis();
        long hourAgo = now - TimeUnit.HOURS.toMillis(1);
        // first in the index, so a sweep that stops at one of them never reaches the models after them
        createModel("no-created-at", Map.of("state", "training", "node_id", local));
        createModel("numeric-node", Map.of("state", "training", "node_id", 42, "created_at", hourAgo));
        createModel(
                "text-created-at",
                Map.of("state", "training", "node_id", "gone-node", "created_at", "2026-01-01T00:00:00Z"));
        createModel("state-list", Map.of("state", List.of("training"), "node_id", local, "created_at", hourAgo));
        createTraining("of-a-gone-node", "gone-node", now);
        createTraining("never-started", local, hourAgo);
        // inside their minute to start: no sweep fails them, yet no job runs them
        createTraining("fresh-cancelled", local, now);
        createTraining("fresh-deleted", local, now);

        TrainingJobs jobs = internalCluster().getInstance(TrainingJobs.class);
        assertBusy(
                () -> {
                    assertEquals(ModelState.FAILED, get("of-a-gone-node").state());
                    assertEquals(ModelState.FAILED, get("never-started").state());
                    assertTrue("skipped: " + jobs.unreadableModelRecords(), jobs.unreadableModelRecords() >= 4);
                },
                30,
                TimeUnit.SECONDS);
        for (String unreadable : List.of("no-created-at", "numeric-node", "text-created-at", "state-list")) {
            assertTrue(unreadable, get(unreadable).mayBeTraining());
        }

        String noJob = "node [" + local + "] is not running its job: it restarted, or the job never started";
        Map<String, String> reasons = new LinkedHashMap<>();
        reasons.put("no-created-at", "cancelled: " + noJob);
        reasons.put(
                "numeric-node",
                "cancelled: the model names no node that could run its job: model [numeric-node] has [node_id] [42], not a string");
        reasons.put("text-created-at", "cancelled: node [gone-node] left the cluster while training");
        reasons.put("fresh-cancelled", "cancelled: " + noJob);
        for (Map.Entry<String, String> expected : reasons.entrySet()) {
            String id = expected.getKey();
            CancelTrainingResponse cancelled = cancel(id);
            assertEquals(id, RestStatus.OK, cancelled.status());
            assertEquals(id, Map.of("model_id", id, "state", "failed", "error", expected.getValue()), json(cancelled));
            ModelRecord model = get(id);
            assertEquals(id, ModelState.FAILED, model.state());
            assertEquals(id, expected.getValue(), model.error());
            OpenSearchStatusException again = expectThrows(OpenSearchStatusException.class, () -> cancel(id));
            assertEquals(RestStatus.CONFLICT, again.status());
            assertEquals("model [" + id + "] is [failed], not [training]", again.getMessage());
        }
        for (String id : List.of("state-list", "fresh-deleted")) {
            DeleteModelResponse deleted = client().execute(ModelActions.DELETE, new ModelIdRequest(id, false))
                    .actionGet();
            assertEquals(id, Map.of("model_id", id, "result", "deleted"), json(deleted));
            expectThrows(ResourceNotFoundException.class, () -> get(id));
        }
    }
}
