package dev.compress.plugin.train;

import dev.compress.plugin.CompressPlugin;
import dev.compress.plugin.model.ModelIndex;
import dev.compress.plugin.model.ModelRecord;
import dev.compress.plugin.model.ModelState;

import org.opensearch.action.support.PlainActionFuture;
import org.opensearch.cluster.service.ClusterService;
import org.opensearch.common.settings.Settings;
import org.opensearch.plugins.Plugin;
import org.opensearch.test.OpenSearchIntegTestCase;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The timed sweep fails models left {@code training} that no event sweep sees: one whose node is
 * not in the cluster, one of this node whose job never started. A model just created is left alone.
 */
@OpenSearchIntegTestCase.ClusterScope(scope = OpenSearchIntegTestCase.Scope.TEST, numDataNodes = 1, numClientNodes = 0)
public class TrainingSweepTests extends OpenSearchIntegTestCase {

    @Override
    protected Collection<Class<? extends Plugin>> nodePlugins() {
        return List.of(CompressPlugin.class);
    }

    @Override
    protected Settings nodeSettings(int nodeOrdinal) {
        return Settings.builder().put(super.nodeSettings(nodeOrdinal)).put("compress.training.sweep_interval", "1s").build();
    }

    private static void createTraining(String id, String nodeId, long createdAt) {
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("doc_type", "model");
        doc.put("model_id", id);
        doc.put("state", ModelState.TRAINING.jsonName());
        doc.put("node_id", nodeId);
        doc.put("created_at", createdAt);
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
        String local = internalCluster().getInstance(ClusterService.class).localNode().getId();
        long now = System.currentTimeMillis();
        // no node leaves and no node starts after these exist: only the timed sweep can see them
        createTraining("fresh", local, now);
        createTraining("of-a-gone-node", "gone-node", now);
        createTraining("never-started", local, now - TimeUnit.HOURS.toMillis(1));
        assertBusy(() -> {
            ModelRecord gone = get("of-a-gone-node");
            assertEquals(ModelState.FAILED, gone.state());
            assertEquals("node [gone-node] left the cluster while training", gone.source().get("error"));
            ModelRecord orphan = get("never-started");
            assertEquals(ModelState.FAILED, orphan.state());
            assertEquals("node [" + local + "] is not running its job: it restarted, or the job never started", orphan.source().get("error"));
        }, 30, TimeUnit.SECONDS);
        // let several more sweeps run: a model inside its minute to start is left training
        Thread.sleep(3_000);
        assertEquals(ModelState.TRAINING, get("fresh").state());
    }
}
