package dev.compress.plugin.train;

import dev.compress.plugin.model.ModelIndex;
import dev.compress.plugin.model.action.MapResponse;
import dev.compress.plugin.model.action.ModelActions;

import org.opensearch.action.support.ActionFilters;
import org.opensearch.action.support.HandledTransportAction;
import org.opensearch.common.inject.Inject;
import org.opensearch.core.action.ActionListener;
import org.opensearch.core.rest.RestStatus;
import org.opensearch.tasks.Task;
import org.opensearch.transport.TransportService;

import java.util.Map;

/** On the node chosen for a job: starts it in the background and acknowledges. */
public final class TransportRunTrainingAction extends HandledTransportAction<TrainModelRequest, MapResponse> {

    private final TrainingJobs jobs;

    @Inject
    public TransportRunTrainingAction(TransportService transportService, ActionFilters actionFilters, TrainingJobs jobs) {
        super(ModelActions.RUN_TRAINING.name(), transportService, actionFilters, TrainModelRequest::new);
        this.jobs = jobs;
    }

    @Override
    protected void doExecute(Task task, TrainModelRequest request, ActionListener<MapResponse> listener) {
        jobs.start(new ModelIndex.Job(request.modelId(), request.createdAtMillis()), request.spec(), request.inputDim());
        listener.onResponse(new MapResponse(Map.of("acknowledged", true), RestStatus.OK));
    }
}
