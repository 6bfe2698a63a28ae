package dev.compress.plugin.train;

import dev.compress.plugin.model.action.MapResponse;
import dev.compress.plugin.model.action.ModelActions;
import dev.compress.plugin.model.action.ModelIdRequest;

import org.opensearch.action.support.ActionFilters;
import org.opensearch.action.support.HandledTransportAction;
import org.opensearch.common.inject.Inject;
import org.opensearch.core.action.ActionListener;
import org.opensearch.core.rest.RestStatus;
import org.opensearch.tasks.Task;
import org.opensearch.transport.TransportService;

import java.util.Map;

/** On the node a model names: whether a job of the model runs (or waits to) here ({@link JobPresence}). */
public final class TransportJobRunningAction extends HandledTransportAction<ModelIdRequest, MapResponse> {

    private final TrainingJobs jobs;

    @Inject
    public TransportJobRunningAction(TransportService transportService, ActionFilters actionFilters, TrainingJobs jobs) {
        super(ModelActions.JOB_RUNNING.name(), transportService, actionFilters, ModelIdRequest::new);
        this.jobs = jobs;
    }

    @Override
    protected void doExecute(Task task, ModelIdRequest request, ActionListener<MapResponse> listener) {
        listener.onResponse(new MapResponse(Map.of("running", jobs.runs(request.modelId())), RestStatus.OK));
    }
}
