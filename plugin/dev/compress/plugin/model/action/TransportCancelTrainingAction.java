package dev.compress.plugin.model.action;

import dev.compress.plugin.model.ModelFields;
import dev.compress.plugin.model.ModelIndex;
import dev.compress.plugin.model.ModelRecord;
import dev.compress.plugin.model.ModelState;
import dev.compress.plugin.train.JobPresence;
import java.util.Map;
import org.opensearch.OpenSearchStatusException;
import org.opensearch.action.support.ActionFilters;
import org.opensearch.action.support.HandledTransportAction;
import org.opensearch.cluster.service.ClusterService;
import org.opensearch.common.inject.Inject;
import org.opensearch.core.action.ActionListener;
import org.opensearch.core.rest.RestStatus;
import org.opensearch.tasks.Task;
import org.opensearch.transport.TransportService;

/**
 * {@code POST _plugins/compress/models/{id}/_cancel}: flags the model; the job, wherever it runs,
 * sees the flag within seconds, stops, and leaves the model {@code failed} with reason "cancelled".
 * A job that cannot stop early (PCA, truncation) runs to its end and is then refused {@code created}.
 *
 * <p>A flag needs a job to act on it: when the model's node runs no job of it (the node left or
 * restarted, the job never started) or the document names no node, nothing would ever read the
 * flag, so the model is failed at once instead (200, {@code state: failed}). This is also how a
 * model whose document the sweeps cannot read is ended.
 */
public final class TransportCancelTrainingAction
        extends HandledTransportAction<ModelIdRequest, CancelTrainingResponse> {

    /** Times the model is read and judged again when it changed between the judgment and the write. */
    private static final int ATTEMPTS = 3;

    private final ModelIndex models;
    private final ClusterService clusterService;
    private final TransportService transportService;

    @Inject
    public TransportCancelTrainingAction(
            TransportService transportService,
            ActionFilters actionFilters,
            ModelIndex models,
            ClusterService clusterService) {
        super(ModelActions.CANCEL.name(), transportService, actionFilters, ModelIdRequest::new);
        this.models = models;
        this.clusterService = clusterService;
        this.transportService = transportService;
    }

    @Override
    protected void doExecute(Task task, ModelIdRequest request, ActionListener<CancelTrainingResponse> listener) {
        cancel(request.modelId(), ATTEMPTS, listener);
    }

    private void cancel(String id, int attemptsLeft, ActionListener<CancelTrainingResponse> listener) {
        models.get(
                id,
                ActionListener.wrap(
                        model -> {
                            if (model.mayBeTraining() == false) {
                                listener.onFailure(notTraining(id, model.state()));
                                return;
                            }
                            JobPresence.of(
                                    model,
                                    clusterService,
                                    transportService,
                                    ActionListener.wrap(
                                            presence -> {
                                                if (presence == JobPresence.RUNNING) {
                                                    requestCancel(id, listener);
                                                } else {
                                                    failNow(model, presence, attemptsLeft, listener);
                                                }
                                            },
                                            listener::onFailure));
                        },
                        listener::onFailure));
    }

    private void requestCancel(String id, ActionListener<CancelTrainingResponse> listener) {
        // the flag is written only on the version whose state was read, so a job that ends meanwhile makes it a 409;
        // the answer is the state that refused the flag, or TRAINING once it is written
        models.updateUnlessRefused(
                id,
                model -> model.mayBeTraining() ? null : model.state(),
                Map.of(ModelFields.CANCEL_REQUESTED, true),
                ModelState.TRAINING,
                ActionListener.wrap(
                        state -> {
                            if (state == ModelState.TRAINING) {
                                listener.onResponse(CancelTrainingResponse.requested(id));
                            } else {
                                listener.onFailure(notTraining(id, state));
                            }
                        },
                        e -> listener.onFailure(kindOf(id, e))));
    }

    /**
     * Fails {@code judged} if the document is still the one judged to have no job (same state, node
     * and creation time as read, whether or not they can be read); one that changed meanwhile is
     * judged again, since its job may have ended or a new job of the id begun.
     */
    private void failNow(
            ModelRecord judged,
            JobPresence presence,
            int attemptsLeft,
            ActionListener<CancelTrainingResponse> listener) {
        String id = judged.id();
        String reason = "cancelled: " + presence.reason(judged);
        models.updateUnlessRefused(
                id,
                current -> current.sameJobAndState(judged) ? null : false,
                ModelIndex.failedFields(reason),
                true,
                ActionListener.wrap(
                        failed -> {
                            if (failed) {
                                listener.onResponse(CancelTrainingResponse.failed(id, reason));
                            } else if (attemptsLeft > 1) {
                                cancel(id, attemptsLeft - 1, listener);
                            } else {
                                listener.onFailure(new OpenSearchStatusException(
                                        "model [" + id + "] kept changing while it was being cancelled; retry",
                                        RestStatus.SERVICE_UNAVAILABLE));
                            }
                        },
                        e -> listener.onFailure(kindOf(id, e))));
    }

    private static OpenSearchStatusException notTraining(String id, ModelState state) {
        return new OpenSearchStatusException(
                "model [" + id + "] is [" + state.jsonName() + "], not [training]", RestStatus.CONFLICT);
    }

    private static Exception kindOf(String id, Exception e) {
        return ModelIndex.isVersionConflict(e)
                // still training, but written to faster than we could read it: not the user's conflict
                ? new OpenSearchStatusException(
                        "model [" + id + "] kept changing while the cancel was being written; retry",
                        RestStatus.SERVICE_UNAVAILABLE)
                : e;
    }
}
