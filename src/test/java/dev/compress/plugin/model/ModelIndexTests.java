package dev.compress.plugin.model;

import org.opensearch.action.support.PlainActionFuture;
import org.opensearch.plugins.Plugin;
import org.opensearch.test.OpenSearchIntegTestCase;

import dev.compress.plugin.CompressPlugin;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

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

    private static void createTraining(String id) {
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("doc_type", "model");
        doc.put("model_id", id);
        doc.put("state", ModelState.TRAINING.jsonName());
        doc.put("node_id", "some-node");
        doc.put("created_at", System.currentTimeMillis());
        PlainActionFuture<Void> created = PlainActionFuture.newFuture();
        models().create(id, doc, created);
        created.actionGet();
    }

    private static void update(String id, Map<String, Object> fields) {
        PlainActionFuture<Void> updated = PlainActionFuture.newFuture();
        models().update(id, fields, updated);
        updated.actionGet();
    }

    private static ModelIndex.Completion complete(String id, byte[] file) {
        PlainActionFuture<ModelIndex.Completion> completed = PlainActionFuture.newFuture();
        models().completeTraining(id, file, Map.of("state", ModelState.CREATED.jsonName()), completed);
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
            .get()
            .getHits()
            .getTotalHits()
            .value() - 1;
    }

    private static byte[] file() {
        byte[] file = new byte[FILE_BYTES];
        random().nextBytes(file);
        return file;
    }

    public void testAFinishedJobBecomesCreatedAndItsFileReadsBack() {
        createTraining("done");
        byte[] file = file();
        assertEquals(ModelIndex.Completion.CREATED, complete("done", file));
        ModelRecord model = get("done");
        assertEquals(ModelState.CREATED, model.state());
        assertEquals(3, model.chunkCount());
        assertEquals(3, chunksOf("done"));
        PlainActionFuture<byte[]> read = PlainActionFuture.newFuture();
        models().getModelFile(model, read);
        assertArrayEquals(file, read.actionGet());
    }

    public void testACancelRequestedBeforeTheEndRefusesTheFile() {
        createTraining("cancelled");
        update("cancelled", Map.of("cancel_requested", true));
        assertEquals(ModelIndex.Completion.CANCELLED, complete("cancelled", file()));
        assertEquals(ModelState.TRAINING, get("cancelled").state());
        assertEquals(0, chunksOf("cancelled"));
    }

    public void testAModelFailedMeanwhileKeepsItsState() {
        createTraining("swept");
        update("swept", Map.of("state", ModelState.FAILED.jsonName(), "error", "node [x] left the cluster while training"));
        assertEquals(ModelIndex.Completion.NO_LONGER_TRAINING, complete("swept", file()));
        ModelRecord model = get("swept");
        assertEquals(ModelState.FAILED, model.state());
        assertEquals("node [x] left the cluster while training", model.source().get("error"));
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
}
