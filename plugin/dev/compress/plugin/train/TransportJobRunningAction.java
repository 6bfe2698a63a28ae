package dev.compress.plugin.train;

import dev.compress.plugin.model.action.ModelActions;
import dev.compress.plugin.model.action.ModelIdRequest;
import org.opensearch.action.support.ActionFilters;
import org.opensearch.action.support.HandledTransportAction;
import org.opensearch.common.inject.Inject;
import org.opensearch.core.action.ActionListener;
import org.opensearch.tasks.Task;
import org.opensearch.transport.TransportService;

/** On the node a model names: whether a job of the model runs (or waits to) here ({@link JobPresence}). */
public final class TransportJobRunningAction extends HandledTransportAction<ModelIdRequest, JobRunningResponse> {

    private final TrainingJobs jobs;

    @Inject
    public TransportJobRunningAction(
            TransportService transportService, ActionFilters actionFilters, TrainingJobs jobs) {
        super(ModelActions.JOB_RUNNING.name(), transportService, actionFilters, ModelIdRequest::new);
        this.jobs = jobs;
    }

    @Override
    protected void doExecute(Task task, ModelIdRequest request, ActionListener<JobRunningResponse> listener) {
        listener.onResponse(new JobRunningResponse(jobs.runs(request.modelId())));
    }
}
