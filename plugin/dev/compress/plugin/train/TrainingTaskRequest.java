package dev.compress.plugin.train;

import java.util.Map;
import org.opensearch.core.tasks.TaskId;
import org.opensearch.tasks.Task;
import org.opensearch.tasks.TaskAwareRequest;

/** What the task manager registers a training job from: its model id and what a cancel of the task does. */
final class TrainingTaskRequest implements TaskAwareRequest {

    private final String modelId;
    private final Runnable whenCancelled;
    private TaskId parentTaskId = TaskId.EMPTY_TASK_ID;

    TrainingTaskRequest(String modelId, Runnable whenCancelled) {
        this.modelId = modelId;
        this.whenCancelled = whenCancelled;
    }

    @Override
    public void setParentTask(TaskId taskId) {
        parentTaskId = taskId;
    }

    @Override
    public TaskId getParentTask() {
        return parentTaskId;
    }

    @Override
    public String getDescription() {
        return "training model [" + modelId + "]";
    }

    @Override
    public Task createTask(long id, String type, String action, TaskId parentTaskId, Map<String, String> headers) {
        return new TrainingTask(id, type, action, getDescription(), parentTaskId, headers, whenCancelled);
    }
}
