package dev.compress.plugin.train;

import dev.compress.plugin.model.ModelFields;
import dev.compress.plugin.model.ModelIndex;
import dev.compress.plugin.model.ModelState;
import dev.compress.plugin.model.action.ModelActions;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.opensearch.ExceptionsHelper;
import org.opensearch.OpenSearchStatusException;
import org.opensearch.action.support.ActionFilters;
import org.opensearch.action.support.HandledTransportAction;
import org.opensearch.action.support.clustermanager.AcknowledgedResponse;
import org.opensearch.cluster.node.DiscoveryNode;
import org.opensearch.cluster.service.ClusterService;
import org.opensearch.common.inject.Inject;
import org.opensearch.core.action.ActionListener;
import org.opensearch.core.common.breaker.CircuitBreaker;
import org.opensearch.core.indices.breaker.CircuitBreakerService;
import org.opensearch.core.rest.RestStatus;
import org.opensearch.index.engine.VersionConflictEngineException;
import org.opensearch.tasks.Task;
import org.opensearch.transport.TransportService;

/**
 * On the node chosen for a job: takes a training slot (429 when none is free) and the heap the job
 * grows with the square of its dimension ({@link TrainingHeap}), writes the model
 * document in state {@code training}, starts the job in the background (a task of its own, {@link
 * TrainingTask}, as this request's task ends with the acknowledgement) and acknowledges. The slot
 * comes first so that a node never has more models in {@code training} by its own jobs than slots
 * ({@link TrainingJobs.Slot}); it is given back when the document cannot be written.
 */
public final class TransportRunTrainingAction extends HandledTransportAction<TrainModelRequest, AcknowledgedResponse> {

    private final TrainingJobs jobs;
    private final ModelIndex models;
    private final ClusterService clusterService;
    private final CircuitBreakerService breakers;

    @Inject
    public TransportRunTrainingAction(
            TransportService transportService,
            ActionFilters actionFilters,
            TrainingJobs jobs,
            ModelIndex models,
            ClusterService clusterService,
            CircuitBreakerService breakers) {
        super(ModelActions.RUN_TRAINING.name(), transportService, actionFilters, TrainModelRequest::new);
        this.jobs = jobs;
        this.models = models;
        this.clusterService = clusterService;
        this.breakers = breakers;
    }

    @Override
    protected void doExecute(Task task, TrainModelRequest request, ActionListener<AcknowledgedResponse> listener) {
        TrainSpec spec = request.spec();
        TrainingJobs.Slot slot = jobs.reserve();
        String modelId = request.modelId();
        try {
            slot.hold(TrainingHeap.reserve(
                    breakers.getBreaker(CircuitBreaker.REQUEST),
                    spec.method(),
                    request.inputDim(),
                    modelId,
                    clusterService.localNode().getName()));
        } catch (RuntimeException e) {
            slot.close();
            throw e;
        }
        ModelIndex.Job job = new ModelIndex.Job(modelId, request.createdAtMillis());
        models.create(
                modelId,
                document(request, spec, clusterService.localNode()),
                ActionListener.wrap(
                        created -> {
                            jobs.start(slot, job, spec, request.inputDim(), taskManager);
                            listener.onResponse(new AcknowledgedResponse(true));
                        },
                        e -> {
                            slot.close();
                            listener.onFailure(
                                    ExceptionsHelper.unwrapCause(e) instanceof VersionConflictEngineException
                                            ? new OpenSearchStatusException(
                                                    "model [" + modelId + "] already exists", RestStatus.CONFLICT)
                                            : e);
                        }));
    }

    /** The model document a placed request starts with. */
    private static Map<String, Object> document(TrainModelRequest request, TrainSpec spec, DiscoveryNode node) {
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put(ModelFields.DOC_TYPE, ModelFields.MODEL_DOC);
        doc.put(ModelFields.MODEL_ID, request.modelId());
        doc.put(ModelFields.STATE, ModelState.TRAINING.jsonName());
        doc.put(ModelFields.METHOD, spec.method());
        doc.put(ModelFields.DESCRIPTION, spec.description());
        doc.put(ModelFields.INPUT_DIMENSION, request.inputDim());
        // a mask predictor scores every input dimension
        doc.put(ModelFields.DIMENSIONS, spec.dimensions().isEmpty() ? List.of(request.inputDim()) : spec.dimensions());
        doc.put(ModelFields.NODE_ID, node.getId());
        doc.put(ModelFields.NODE_NAME, node.getName());
        doc.put(ModelFields.CREATED_AT, request.createdAtMillis());
        doc.put(ModelFields.UPDATED_AT, request.createdAtMillis());
        doc.put(ModelFields.REQUEST, request.body());
        return doc;
    }
}
