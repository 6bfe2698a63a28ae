package dev.compress.plugin.model.action;

import dev.compress.plugin.inference.EvictModelAction;
import dev.compress.plugin.inference.EvictModelRequest;
import dev.compress.plugin.inference.EvictModelResponse;
import dev.compress.plugin.ingest.ModelPipelines;
import dev.compress.plugin.model.ModelIndex;
import dev.compress.plugin.model.ModelRecord;
import dev.compress.plugin.model.action.DeleteModelResponse.EvictionFailure;
import dev.compress.plugin.train.JobPresence;
import java.util.ArrayList;
import java.util.List;
import org.opensearch.ExceptionsHelper;
import org.opensearch.OpenSearchStatusException;
import org.opensearch.action.FailedNodeException;
import org.opensearch.action.support.ActionFilters;
import org.opensearch.action.support.HandledTransportAction;
import org.opensearch.cluster.service.ClusterService;
import org.opensearch.common.inject.Inject;
import org.opensearch.core.action.ActionListener;
import org.opensearch.core.rest.RestStatus;
import org.opensearch.tasks.Task;
import org.opensearch.transport.TransportService;
import org.opensearch.transport.client.Client;

/**
 * {@code DELETE _plugins/compress/models/{id}}: refused (409) while the model's job runs or while an
 * ingest pipeline's {@code compress} processor names it; otherwise removes it and its chunks and
 * evicts it from every node's model cache. A model left {@code training} with no job behind it
 * (its node left or restarted, or its document names none) is deleted like any other. The delete
 * is conditional on the state document as these checks read it: one written meanwhile is a 409.
 */
public final class TransportDeleteModelAction extends HandledTransportAction<ModelIdRequest, DeleteModelResponse> {

    private final ModelIndex models;
    private final ClusterService clusterService;
    private final Client client;
    private final TransportService transportService;

    @Inject
    public TransportDeleteModelAction(
            TransportService transportService,
            ActionFilters actionFilters,
            ModelIndex models,
            ClusterService clusterService,
            Client client) {
        super(ModelActions.DELETE.name(), transportService, actionFilters, ModelIdRequest::new);
        this.models = models;
        this.clusterService = clusterService;
        this.client = client;
        this.transportService = transportService;
    }

    @Override
    protected void doExecute(Task task, ModelIdRequest request, ActionListener<DeleteModelResponse> listener) {
        String id = request.modelId();
        models.getVersioned(
                id,
                ActionListener.wrap(
                        read -> {
                            ModelRecord model = read.model();
                            if (model.mayBeTraining() == false) {
                                delete(read, listener);
                                return;
                            }
                            // a model in training whose node runs no job of it (or that names no node) would wait
                            // forever for a cancel
                            JobPresence.of(
                                    model,
                                    clusterService,
                                    transportService,
                                    ActionListener.wrap(
                                            presence -> {
                                                if (presence == JobPresence.RUNNING) {
                                                    listener.onFailure(new OpenSearchStatusException(
                                                            "model [" + id
                                                                    + "] is training; cancel it first with POST _plugins/compress/models/"
                                                                    + id + "/_cancel",
                                                            RestStatus.CONFLICT));
                                                } else {
                                                    delete(read, listener);
                                                }
                                            },
                                            listener::onFailure));
                        },
                        listener::onFailure));
    }

    private void delete(ModelIndex.Versioned read, ActionListener<DeleteModelResponse> listener) {
        String id = read.model().id();
        List<String> pipelines = ModelPipelines.using(clusterService.state(), id);
        if (pipelines.isEmpty() == false) {
            listener.onFailure(new OpenSearchStatusException(
                    "model [" + id + "] is used by ingest pipeline(s) " + pipelines + "; remove them first",
                    RestStatus.CONFLICT));
            return;
        }
        models.delete(
                read,
                ActionListener.wrap(
                        ok -> client.execute(
                                EvictModelAction.INSTANCE,
                                new EvictModelRequest(id),
                                ActionListener.wrap(
                                        evicted -> listener.onResponse(new DeleteModelResponse(id, failures(evicted))),
                                        // the model is deleted all the same: a failed broadcast is an eviction failure,
                                        // not a failed DELETE
                                        e -> listener.onResponse(new DeleteModelResponse(
                                                id,
                                                List.of(new EvictionFailure(
                                                        "_all", String.valueOf(e.getMessage()))))))),
                        e -> listener.onFailure(
                                ModelIndex.isVersionConflict(e)
                                        ? new OpenSearchStatusException(
                                                "model [" + id
                                                        + "] changed while it was being deleted (a training job or a"
                                                        + " sweep wrote it), so nothing was deleted: read it again and retry",
                                                RestStatus.CONFLICT)
                                        : e)));
    }

    /** The nodes that did not confirm the eviction: they may still serve their cached copy ({@link DeleteModelResponse}). */
    private static List<EvictionFailure> failures(EvictModelResponse evicted) {
        List<EvictionFailure> failures = new ArrayList<>();
        for (FailedNodeException failure : evicted.failures()) {
            // below the node failure sits the transport's wrapper, and below that what the node said
            Throwable cause = failure.getCause() == null ? failure : ExceptionsHelper.unwrapCause(failure.getCause());
            failures.add(new EvictionFailure(failure.nodeId(), String.valueOf(cause.getMessage())));
        }
        return failures;
    }
}
