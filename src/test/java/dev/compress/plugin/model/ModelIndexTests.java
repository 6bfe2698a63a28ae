package dev.compress.plugin.model;

import static org.opensearch.test.hamcrest.OpenSearchAssertions.assertAcked;

import dev.compress.plugin.CompressPlugin;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.opensearch.OpenSearchStatusException;
import org.opensearch.action.bulk.BulkRequestBuilder;
import org.opensearch.action.support.ActiveShardCount;
import org.opensearch.action.support.PlainActionFuture;
import org.opensearch.action.support.WriteRequest;
import org.opensearch.common.settings.Settings;
import org.opensearch.core.rest.RestStatus;
import org.opensearch.plugins.Plugin;
import org.opensearch.test.OpenSearchIntegTestCase;

/**
 * The model index on a real node: a finished job's file becomes a {@code created} model only while
 * the model is still training and not cancelled, and a refused file leaves no chunk behind.
 */
@OpenSearchIntegTestCase.ClusterScope(scope = OpenSearchIntegTestCase.Scope.SUITE, numDataNodes = 1, numClientNodes = 0)
public class ModelIndexTests extends OpenSearchIntegTestCase {

    /** Three chunks, the last one partial. */
    private static final int FILE_BYTES = 2 * ModelIndex.CHUNK_BYTES + 12_345;

    @Override
    protected Collection<Class<? extends Plugin>> nodePlugins() {
        return List.of(CompressPlugin.class);
    }

    private static ModelIndex models() {
        return internalCluster().getInstance(ModelIndex.class);
    }

    /** The sweeps stay out of these tests: their models have no job behind them. */
    @Override
    protected Settings nodeSettings(int nodeOrdinal) {
        return Settings.builder()
                .put(super.nodeSettings(nodeOrdinal))
                .put("compress.training.sweep_interval", "1h")
                .build();
    }

    private static ModelIndex.Job createTraining(String id) {
        long createdAt = System.currentTimeMillis();
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("doc_type", "model");
        doc.put("model_id", id);
        doc.put("state", ModelState.TRAINING.jsonName());
        doc.put("node_id", "some-node");
        doc.put("created_at", createdAt);
        PlainActionFuture<Void> created = PlainActionFuture.newFuture();
        models().create(id, doc, created);
        created.actionGet();
        return new ModelIndex.Job(id, createdAt);
    }

    /** A write from elsewhere: a cancel request, a sweep. */
    private static void update(String id, Map<String, Object> fields) {
        client().prepareUpdate(ModelIndex.NAME, id)
                .setDoc(fields)
                .setRefreshPolicy(WriteRequest.RefreshPolicy.IMMEDIATE)
                .get();
    }

    private static ModelIndex.Completion complete(ModelIndex.Job job, byte[] file) {
        return complete(job, file, false);
    }

    private static ModelIndex.Completion complete(ModelIndex.Job job, byte[] file, boolean cancelledHere) {
        PlainActionFuture<ModelIndex.Completion> completed = PlainActionFuture.newFuture();
        models().completeTraining(
                        job, file, Map.of("state", ModelState.CREATED.jsonName()), () -> cancelledHere, completed);
        return completed.actionGet();
    }

    private static ModelRecord get(String id) {
        PlainActionFuture<ModelRecord> got = PlainActionFuture.newFuture();
        models().get(id, got);
        return got.actionGet();
    }

    private static long chunksOf(String id) {
        return client().prepareSearch(ModelIndex.NAME)
                        .setQuery(org.opensearch.index.query.QueryBuilders.termQuery("model_id", id))
                        .setSize(0)
                        .setTrackTotalHits(true)
                        .get()
                        .getHits()
                        .getTotalHits()
                        .value()
                - 1;
    }

    private static byte[] file() {
        byte[] file = new byte[FILE_BYTES];
        random().nextBytes(file);
        return file;
    }

    public void testAFinishedJobBecomesCreatedAndItsFileReadsBack() {
        ModelIndex.Job job = createTraining("done");
        byte[] file = file();
        assertEquals(ModelIndex.Completion.CREATED, complete(job, file));
        ModelRecord model = get("done");
        assertEquals(ModelState.CREATED, model.state());
        assertEquals(3, model.chunkCount());
        assertEquals(3, chunksOf("done"));
        PlainActionFuture<byte[]> read = PlainActionFuture.newFuture();
        models().getModelFile(model, read);
        assertArrayEquals(file, read.actionGet());
    }

    /** A created model whose document or chunks cannot make up its file is a 409 naming the model, never a 500. */
    public void testAFileThatCannotBeReassembledIsAConflict() {
        ModelIndex.Job job = createTraining("edited");
        assertEquals(ModelIndex.Completion.CREATED, complete(job, file()));
        update("edited", Map.of("model_size_bytes", FILE_BYTES + ModelIndex.CHUNK_BYTES));
        assertConflict("edited", "[chunk_count] [3] does not hold [model_size_bytes]");
        update("edited", Map.of("model_size_bytes", -1));
        assertConflict("edited", "has [model_size_bytes] [-1], not a whole number");
        update("edited", Map.of("model_size_bytes", FILE_BYTES));
        client().prepareDelete(ModelIndex.NAME, ModelIndex.chunkId(job, 1))
                .setRefreshPolicy(WriteRequest.RefreshPolicy.IMMEDIATE)
                .get();
        assertConflict("edited", "chunk [" + ModelIndex.chunkId(job, 1) + "] is missing");
    }

    private static void assertConflict(String id, String message) {
        PlainActionFuture<byte[]> read = PlainActionFuture.newFuture();
        models().getModelFile(get(id), read);
        OpenSearchStatusException e = expectThrows(OpenSearchStatusException.class, read::actionGet);
        assertEquals(RestStatus.CONFLICT, e.status());
        assertTrue(e.getMessage(), e.getMessage().startsWith("model [" + id + "] cannot be read: "));
        assertTrue(e.getMessage(), e.getMessage().contains(message));
    }

    public void testACancelHeldOnlyByTheJobsNodeRefusesTheFile() {
        ModelIndex.Job job = createTraining("task-cancelled");
        assertEquals(ModelIndex.Completion.CANCELLED, complete(job, file(), true));
        assertEquals(ModelState.TRAINING, get("task-cancelled").state());
        assertEquals("a refused job's chunks are deleted", 0, chunksOf("task-cancelled"));
    }

    public void testACancelRequestedBeforeTheEndRefusesTheFile() {
        ModelIndex.Job job = createTraining("cancelled");
        update("cancelled", Map.of("cancel_requested", true));
        assertEquals(ModelIndex.Completion.CANCELLED, complete(job, file()));
        assertEquals(ModelState.TRAINING, get("cancelled").state());
        assertEquals(0, chunksOf("cancelled"));
    }

    public void testAModelFailedMeanwhileKeepsItsState() {
        ModelIndex.Job job = createTraining("swept");
        update(
                "swept",
                Map.of("state", ModelState.FAILED.jsonName(), "error", "node [x] left the cluster while training"));
        assertEquals(ModelIndex.Completion.NO_LONGER_TRAINING, complete(job, file()));
        ModelRecord model = get("swept");
        assertEquals(ModelState.FAILED, model.state());
        assertEquals("node [x] left the cluster while training", model.error());
        assertEquals(0, chunksOf("swept"));
    }

    public void testAConditionalUpdateRefusesAStaleRead() {
        createTraining("raced");
        PlainActionFuture<ModelIndex.Versioned> read = PlainActionFuture.newFuture();
        models().getVersioned("raced", read);
        ModelIndex.Versioned stale = read.actionGet();
        update("raced", Map.of("progress", Map.of("epochs_done", 1)));
        PlainActionFuture<Void> late = PlainActionFuture.newFuture();
        models().updateIfUnchanged(stale, Map.of("cancel_requested", true), late);
        Exception e = expectThrows(Exception.class, late::actionGet);
        assertTrue(String.valueOf(e), ModelIndex.isVersionConflict(e));
        assertFalse(get("raced").cancelRequested());
    }

    /** A model failed, deleted and trained again under the same id: the first job touches nothing of the second. */
    public void testAnEarlierJobOfTheSameIdTouchesNothing() {
        ModelIndex.Job first = new ModelIndex.Job("reused", 1L);
        ModelIndex.Job second = createTraining("reused");
        assertEquals(ModelIndex.Completion.NO_LONGER_TRAINING, complete(first, file()));
        assertFalse(fail(first, "late failure of the first job"));
        assertEquals(ModelState.TRAINING, get("reused").state());
        byte[] file = file();
        assertEquals(ModelIndex.Completion.CREATED, complete(second, file));
        assertEquals(ModelIndex.Completion.NO_LONGER_TRAINING, complete(first, file()));
        PlainActionFuture<byte[]> read = PlainActionFuture.newFuture();
        models().getModelFile(get("reused"), read);
        assertArrayEquals(file, read.actionGet());
    }

    /** A sweep that read the model as training before its job finished leaves the created model alone. */
    public void testFailingIsRefusedOnceTheModelIsCreated() {
        ModelIndex.Job job = createTraining("finished");
        ModelIndex.Job other = createTraining("finished-later");
        assertEquals(ModelIndex.Completion.CREATED, complete(other, file()));
        assertFalse(fail(other, "a sweep, too late"));
        assertEquals(ModelState.CREATED, get("finished-later").state());
        assertTrue(fail(job, "a sweep, in time"));
        assertEquals(ModelState.FAILED, get("finished").state());
        assertEquals("a sweep, in time", get("finished").error());
    }

    private static boolean fail(ModelIndex.Job job, String reason) {
        PlainActionFuture<Boolean> failed = PlainActionFuture.newFuture();
        models().failTraining(job, reason, failed);
        return failed.actionGet();
    }

    private static ModelIndex.Versioned versioned(String id) {
        PlainActionFuture<ModelIndex.Versioned> read = PlainActionFuture.newFuture();
        models().getVersioned(id, read);
        return read.actionGet();
    }

    /** A delete decided on a stale read (the model written meanwhile) is a version conflict and deletes nothing. */
    public void testADeleteRefusesAStaleRead() {
        ModelIndex.Job job = createTraining("rewritten");
        assertEquals(ModelIndex.Completion.CREATED, complete(job, file()));
        ModelIndex.Versioned stale = versioned("rewritten");
        update("rewritten", Map.of("description", "written after the read"));
        PlainActionFuture<Void> deleted = PlainActionFuture.newFuture();
        models().delete(stale, deleted);
        Exception e = expectThrows(Exception.class, deleted::actionGet);
        assertTrue(String.valueOf(e), ModelIndex.isVersionConflict(e));
        assertEquals(ModelState.CREATED, get("rewritten").state());
        assertEquals(3, chunksOf("rewritten"));
    }

    /** Deleting a model removes every chunk of its id, also one an earlier job left behind. */
    public void testDeleteRemovesChunksOfEveryJob() {
        ModelIndex.Job job = createTraining("deleted");
        assertEquals(ModelIndex.Completion.CREATED, complete(job, file()));
        client().prepareIndex(ModelIndex.NAME)
                .setId("deleted#1#0")
                .setSource(Map.of("doc_type", "chunk", "model_id", "deleted", "chunk", 0, "data", new byte[] {1}))
                .setRefreshPolicy(WriteRequest.RefreshPolicy.IMMEDIATE)
                .get();
        assertEquals(4, chunksOf("deleted"));
        PlainActionFuture<Void> deleted = PlainActionFuture.newFuture();
        models().delete(versioned("deleted"), deleted);
        deleted.actionGet();
        assertEquals(
                0,
                client().prepareSearch(ModelIndex.NAME)
                        .setQuery(org.opensearch.index.query.QueryBuilders.termQuery("model_id", "deleted"))
                        .setSize(0)
                        .get()
                        .getHits()
                        .getTotalHits()
                        .value());
    }

    /** Chunks beyond one search's page (those failed jobs left, say) are deleted too. */
    public void testDeleteRemovesChunksBeyondOnePage() {
        ModelIndex.Job job = createTraining("many-chunks");
        assertEquals(ModelIndex.Completion.CREATED, complete(job, file()));
        BulkRequestBuilder leftBehind = client().prepareBulk().setRefreshPolicy(WriteRequest.RefreshPolicy.IMMEDIATE);
        for (int i = 0; i < ModelIndex.MAX_CHUNKS; i++) {
            leftBehind.add(client().prepareIndex(ModelIndex.NAME)
                    .setId("many-chunks#1#" + i)
                    .setSource(Map.of(
                            "doc_type", "chunk", "model_id", "many-chunks", "chunk", i, "data", new byte[] {1})));
        }
        assertFalse(leftBehind.get().hasFailures());
        assertEquals(ModelIndex.MAX_CHUNKS + 3, chunksOf("many-chunks"));
        PlainActionFuture<Void> deleted = PlainActionFuture.newFuture();
        models().delete(versioned("many-chunks"), deleted);
        deleted.actionGet();
        assertEquals(-1, chunksOf("many-chunks"));
    }

    /** The sweep and job placement read every model in training, not the first page of them. */
    public void testTrainingModelsReadsEveryPage() {
        BulkRequestBuilder training = client().prepareBulk().setRefreshPolicy(WriteRequest.RefreshPolicy.IMMEDIATE);
        createTraining("first"); // creates the index
        for (int i = 0; i < ModelIndex.TRAINING_PAGE + 2; i++) {
            training.add(client().prepareIndex(ModelIndex.NAME)
                    .setId("training-" + i)
                    .setSource(Map.of(
                            "doc_type", "model", "model_id", "training-" + i, "state", "training", "node_id", "n")));
        }
        assertFalse(training.get().hasFailures());
        PlainActionFuture<List<ModelRecord>> found = PlainActionFuture.newFuture();
        models().trainingModels(found::onResponse, found::onFailure);
        assertEquals(ModelIndex.TRAINING_PAGE + 3, found.actionGet().size());
    }

    /** An index created by other means than the plugin (by hand, say) maps model_id as text: no sort may need it. */
    public void testTrainingModelsReadsAnIndexMappedByOthers() {
        client().prepareIndex(ModelIndex.NAME)
                .setId("by-hand")
                .setSource(Map.of("doc_type", "model", "model_id", "by-hand", "state", "training", "node_id", "n"))
                .setRefreshPolicy(WriteRequest.RefreshPolicy.IMMEDIATE)
                .get();
        PlainActionFuture<List<ModelRecord>> found = PlainActionFuture.newFuture();
        models().trainingModels(found::onResponse, found::onFailure);
        assertEquals(
                List.of("by-hand"),
                found.actionGet().stream().map(ModelRecord::id).toList());
    }

    /**
     * A request that finds the index another request has just created waits for its primary to start, where its
     * search failed with "all shards failed": here the primary is held unassigned until the reads are under way.
     */
    public void testReadsWaitForAPrimaryStillStarting() throws Exception {
        assertAcked(client().admin()
                .indices()
                .prepareCreate(ModelIndex.NAME)
                .setSettings(Settings.builder()
                        .put("index.number_of_shards", 1)
                        .put("index.number_of_replicas", 0)
                        .put("index.hidden", true)
                        .put("index.routing.allocation.include._name", "no-such-node"))
                .setWaitForActiveShards(ActiveShardCount.NONE));
        PlainActionFuture<List<ModelRecord>> found = PlainActionFuture.newFuture();
        models().trainingModels(found::onResponse, found::onFailure);
        PlainActionFuture<Void> ensured = PlainActionFuture.newFuture();
        models().ensureIndex(ensured);
        PlainActionFuture<ModelRecord> got = PlainActionFuture.newFuture();
        models().get("absent", got);
        PlainActionFuture<org.opensearch.action.search.SearchResponse> searched = PlainActionFuture.newFuture();
        models().search(new org.opensearch.search.builder.SearchSourceBuilder(), searched);
        Thread.sleep(500);
        assertFalse(
                "the reads wait while the primary is unassigned",
                found.isDone() || ensured.isDone() || got.isDone() || searched.isDone());

        assertAcked(client().admin()
                .indices()
                .prepareUpdateSettings(ModelIndex.NAME)
                .setSettings(Settings.builder().putNull("index.routing.allocation.include._name")));
        assertEquals(List.of(), found.actionGet(30, TimeUnit.SECONDS));
        ensured.actionGet(30, TimeUnit.SECONDS);
        expectThrows(org.opensearch.ResourceNotFoundException.class, () -> got.actionGet(30, TimeUnit.SECONDS));
        assertEquals(0, searched.actionGet(30, TimeUnit.SECONDS).getHits().getHits().length);
    }
}
