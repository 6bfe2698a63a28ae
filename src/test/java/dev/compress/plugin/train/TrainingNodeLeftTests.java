package dev.compress.plugin.train;

import dev.compress.plugin.CompressPlugin;
import dev.compress.plugin.model.action.ModelActions;
import dev.compress.plugin.model.action.ModelIdRequest;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.opensearch.plugins.Plugin;
import org.opensearch.test.InternalTestCluster;
import org.opensearch.test.OpenSearchIntegTestCase;

/** A node that leaves mid-training leaves its model {@code failed} with the reason, not {@code training}. */
@OpenSearchIntegTestCase.ClusterScope(scope = OpenSearchIntegTestCase.Scope.TEST, numDataNodes = 3, numClientNodes = 0)
public class TrainingNodeLeftTests extends OpenSearchIntegTestCase {

    @Override
    protected Collection<Class<? extends Plugin>> nodePlugins() {
        return List.of(CompressPlugin.class);
    }

    private Map<String, Object> model(String id) {
        return client().execute(ModelActions.GET, new ModelIdRequest(id, false))
                .actionGet()
                .model()
                .source();
    }

    public void testModelOfANodeThatLeftIsFailed() throws Exception {
        ScifactIndices.load(client());
        Map<String, Object> body = org.opensearch.common.xcontent.XContentHelper.convertToMap(
                org.opensearch.common.xcontent.json.JsonXContent.jsonXContent,
                TrainModelApiTests.trainBody("dive", 32, "{\"epochs\":500,\"patience\":0}"),
                false);
        client().execute(ModelActions.TRAIN, new TrainModelRequest("orphan", body))
                .actionGet();
        assertBusy(() -> assertNotNull("training has started", model("orphan").get("progress")), 3, TimeUnit.MINUTES);
        String trainer = (String) model("orphan").get("node_name");
        internalCluster().stopRandomNode(InternalTestCluster.nameFilter(trainer));
        assertBusy(
                () -> {
                    Map<String, Object> m = model("orphan");
                    assertEquals(String.valueOf(m), "failed", m.get("state"));
                    assertTrue(
                            String.valueOf(m.get("error")),
                            String.valueOf(m.get("error")).contains("left the cluster while training"));
                },
                2,
                TimeUnit.MINUTES);
    }
}
