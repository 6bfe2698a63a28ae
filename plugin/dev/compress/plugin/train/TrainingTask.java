package dev.compress.plugin.train;

import java.util.Map;
import org.opensearch.core.tasks.TaskId;
import org.opensearch.tasks.CancellableTask;

/**
 * A training job as an OpenSearch task on its node, so {@code GET _tasks?actions=*compress*} lists
 * it and {@code POST _tasks/{task_id}/_cancel} stops it. It lives as long as the job, not as the
 * request that started it, which is answered at once.
 */
public final class TrainingTask extends CancellableTask {

    /** The task's action name: a training job's own, not a transport action's. */
    public static final String ACTION = "cluster:admin/compress/model/train/job";

    private final Runnable whenCancelled;

    TrainingTask(
            long id,
            String type,
            String action,
            String description,
            TaskId parentTaskId,
            Map<String, String> headers,
            Runnable whenCancelled) {
        super(id, type, action, description, parentTaskId, headers);
        this.whenCancelled = whenCancelled;
    }

    /** A job starts nothing on other nodes that would outlive it. */
    @Override
    public boolean shouldCancelChildrenOnCancellation() {
        return false;
    }

    @Override
    protected void onCancelled() {
        whenCancelled.run();
    }
}
