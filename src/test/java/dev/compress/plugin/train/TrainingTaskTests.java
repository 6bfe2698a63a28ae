package dev.compress.plugin.train;

import dev.compress.plugin.CompressClusterTestCase;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.opensearch.common.xcontent.XContentFactory;
import org.opensearch.core.xcontent.XContentBuilder;
import org.opensearch.test.OpenSearchIntegTestCase;

/**
 * A training job is an OpenSearch task on its node: {@code _tasks} lists it with its model id, the
 * stats count it as running, and cancelling the task ends the model as {@code _cancel} does.
 */
@SuppressWarnings("unchecked")
@OpenSearchIntegTestCase.ClusterScope(scope = OpenSearchIntegTestCase.Scope.SUITE, numDataNodes = 1, numClientNodes = 0)
public class TrainingTaskTests extends CompressClusterTestCase {

    private static String json(Map<String, Object> body) throws IOException {
        try (XContentBuilder builder = XContentFactory.jsonBuilder()) {
            return builder.map(body).toString();
        }
    }

    /** The training tasks {@code _tasks} lists, by task id. */
    private static Map<String, Map<String, Object>> trainingTasks() throws IOException {
        Map<String, Object> listed = restCall("GET", "/_tasks?actions=*compress*&detailed=true", null);
        Map<String, Map<String, Object>> tasks = new java.util.HashMap<>();
        for (Object node : ((Map<String, Object>) listed.get("nodes")).values()) {
            ((Map<String, Map<String, Object>>) ((Map<String, Object>) node).get("tasks")).forEach((id, task) -> {
                if (TrainingTask.ACTION.equals(task.get("action"))) {
                    tasks.put(id, task);
                }
            });
        }
        return tasks;
    }

    /** The stat summed over the cluster's nodes: the test framework may add a dedicated cluster manager. */
    private static long nodeStat(String stat) throws IOException {
        Map<String, Object> nodes = (Map<String, Object>)
                restCall("GET", "/_plugins/compress/stats/" + stat, null).get("nodes");
        long sum = 0;
        for (Object node : nodes.values()) {
            sum += ((Number) ((Map<String, Object>) node).get(stat)).longValue();
        }
        return sum;
    }

    public void testCancellingTheTaskFailsTheModelAsCancelled() throws Exception {
        SyntheticIndices.load(client(), new Random(random().nextLong()));
        long failedBefore = nodeStat("training_jobs_failed");
        restCall(
                "POST",
                "/_plugins/compress/models/as-task/_train",
                json(SyntheticIndices.trainBody("dive", 8, Map.of("epochs", 1000, "patience", 0))));
        Map<String, Map<String, Object>> tasks = trainingTasks();
        assertEquals(String.valueOf(tasks), 1, tasks.size());
        String taskId = tasks.keySet().iterator().next();
        Map<String, Object> task = tasks.get(taskId);
        assertEquals("training model [as-task]", task.get("description"));
        assertEquals(true, task.get("cancellable"));
        assertBusy(
                () -> assertNotNull(
                        "training has started",
                        restCall("GET", "/_plugins/compress/models/as-task", null)
                                .get("progress")),
                3,
                TimeUnit.MINUTES);
        assertEquals(1, nodeStat("training_jobs_running"));
        assertEquals(0, nodeStat("training_jobs_queued"));

        Map<String, Object> cancelled = restCall("POST", "/_tasks/" + taskId + "/_cancel", null);
        assertFalse(String.valueOf(cancelled), cancelled.containsKey("node_failures"));
        Map<String, Object> failed = awaitState("as-task", "failed");
        assertEquals("cancelled", failed.get("error"));
        assertEquals(true, failed.get("cancel_requested"));
        assertBusy(() -> assertEquals(Map.of(), trainingTasks()));
        assertEquals(0, nodeStat("training_jobs_running"));
        assertEquals(1, nodeStat("training_jobs_failed") - failedBefore);
        assertEquals(List.of(), List.copyOf(trainingTasks().keySet()));
    }

    public void testAJobThatEndsUnregistersItsTask() throws Exception {
        SyntheticIndices.load(client(), new Random(random().nextLong()));
        long completedBefore = nodeStat("training_jobs_completed");
        restCall(
                "POST", "/_plugins/compress/models/short/_train", json(SyntheticIndices.trainBody("pca", 8, Map.of())));
        awaitState("short", "created");
        assertBusy(() -> assertEquals(Map.of(), trainingTasks()));
        assertEquals(1, nodeStat("training_jobs_completed") - completedBefore);
    }
}
