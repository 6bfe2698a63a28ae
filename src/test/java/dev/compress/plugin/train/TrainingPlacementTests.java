package dev.compress.plugin.train;

import dev.compress.plugin.CompressClusterTestCase;
import dev.compress.plugin.model.action.ModelActions;
import dev.compress.plugin.model.action.ModelIdRequest;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.opensearch.ExceptionsHelper;
import org.opensearch.common.settings.Settings;
import org.opensearch.core.rest.RestStatus;
import org.opensearch.test.OpenSearchIntegTestCase;

/**
 * {@code compress.training.max_jobs_per_node} is a node setting, so nodes may hold different numbers of
 * jobs: every slot of the cluster is used, jobs that share a node train side by side, and once all
 * slots are taken the 429 gives each node's own refusal, whichever node coordinates the request.
 */
@OpenSearchIntegTestCase.ClusterScope(scope = OpenSearchIntegTestCase.Scope.TEST, numDataNodes = 0, numClientNodes = 0)
public class TrainingPlacementTests extends CompressClusterTestCase {

    public void testNodesWithDifferentLimitsFillEverySlotAndEachSaysWhyItRefuses() throws Exception {
        String one = internalCluster().startNode(Settings.builder().put("compress.training.max_jobs_per_node", 1));
        String two = internalCluster().startNode(Settings.builder().put("compress.training.max_jobs_per_node", 2));
        ensureStableCluster(2);
        SyntheticIndices.load(client(), new Random(random().nextLong()));
        // long enough to hold every slot until the last request has its answer
        Map<String, Object> slow = SyntheticIndices.trainBody("dive", 8, Map.of("epochs", 1000, "patience", 0));

        List<Object> nodes = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            internalCluster()
                    .client(one)
                    .execute(ModelActions.TRAIN, new TrainModelRequest("job-" + i, slow))
                    .actionGet();
            nodes.add(
                    restCall("GET", "/_plugins/compress/models/job-" + i, null).get("node_name"));
        }
        assertEquals(nodes.toString(), 1, Collections.frequency(nodes, one));
        assertEquals(nodes.toString(), 2, Collections.frequency(nodes, two));

        Exception busy = expectThrows(
                Exception.class,
                () -> internalCluster()
                        .client(one)
                        .execute(ModelActions.TRAIN, new TrainModelRequest("job-3", slow))
                        .actionGet());
        assertEquals(RestStatus.TOO_MANY_REQUESTS, ExceptionsHelper.status(busy));
        String message = ExceptionsHelper.unwrapCause(busy).getMessage();
        assertTrue(message, message.startsWith("every data node is busy: node ["));
        assertTrue(
                message,
                message.contains("node [" + one + "] already runs 1 training job(s) "
                        + "([compress.training.max_jobs_per_node])"));
        assertTrue(
                message,
                message.contains("node [" + two + "] already runs 2 training job(s) "
                        + "([compress.training.max_jobs_per_node])"));
        assertTrue(message, message.endsWith("; retry when one finishes"));

        // the two jobs of one node train side by side (DJL allows one gradient collector per process)
        for (int i = 0; i < 3; i++) {
            String id = "job-" + i;
            assertBusy(
                    () -> {
                        Map<String, Object> model = restCall("GET", "/_plugins/compress/models/" + id, null);
                        assertEquals(model.toString(), "training", model.get("state"));
                        Map<?, ?> progress = (Map<?, ?>) model.get("progress");
                        assertTrue(
                                model.toString(),
                                progress != null && ((Number) progress.get("epochs_done")).intValue() >= 2);
                    },
                    2,
                    TimeUnit.MINUTES);
        }
        for (int i = 0; i < 3; i++) {
            client().execute(ModelActions.CANCEL, new ModelIdRequest("job-" + i, false))
                    .actionGet();
            awaitState("job-" + i, "failed");
        }
    }
}
