package dev.compress.plugin.train;

import dev.compress.plugin.model.ModelRecord;
import dev.compress.plugin.model.action.ModelActions;
import dev.compress.plugin.model.action.ModelIdRequest;
import org.opensearch.action.ActionListenerResponseHandler;
import org.opensearch.cluster.node.DiscoveryNode;
import org.opensearch.cluster.service.ClusterService;
import org.opensearch.core.action.ActionListener;
import org.opensearch.transport.TransportService;

/**
 * Whether a model in {@code training} has a job behind it, as the node its document names answers.
 * The sweeps find models without one only on their schedule, and not at all when the document cannot
 * be read; {@code _cancel} and DELETE ask, so a user can always end such a model at once.
 */
public enum JobPresence {
    /** The model's node runs or has queued a job of the model: only the job may end it. */
    RUNNING,
    /** The model's node is in the cluster and runs no job of the model. */
    NOT_RUNNING,
    /** The model's node is not in the cluster. */
    NODE_LEFT,
    /** The document names no node it can be asked of ({@code node_id} missing or not a string). */
    NO_NODE;

    /**
     * Why the model has no job, for its {@code error} field; null for {@link #RUNNING}. A job that
     * has stored its result is no longer running, but then the model is not {@code training} either,
     * and the conditional write that uses the reason is refused.
     */
    public String reason(ModelRecord model) {
        return switch (this) {
            case RUNNING -> null;
            case NOT_RUNNING ->
                "node [" + model.nodeId() + "] is not running its job: it restarted, or the job never started";
            case NODE_LEFT -> "node [" + model.nodeId() + "] left the cluster while training";
            case NO_NODE -> "the model names no node that could run its job: " + unreadableNode(model);
        };
    }

    /** What is wrong with {@code model}'s {@code node_id}, which {@link #NO_NODE} says cannot be read. */
    private static String unreadableNode(ModelRecord model) {
        try {
            return "node [" + model.nodeId() + "]";
        } catch (ModelRecord.UnreadableModelException e) {
            return e.getMessage();
        }
    }

    /** Asks the node {@code model} names whether a job of it runs there. */
    public static void of(
            ModelRecord model,
            ClusterService clusterService,
            TransportService transportService,
            ActionListener<JobPresence> listener) {
        String nodeId;
        try {
            nodeId = model.nodeId();
        } catch (ModelRecord.UnreadableModelException e) {
            listener.onResponse(NO_NODE);
            return;
        }
        DiscoveryNode node = clusterService.state().nodes().get(nodeId);
        if (node == null) {
            listener.onResponse(NODE_LEFT);
            return;
        }
        transportService.sendRequest(
                node,
                ModelActions.JOB_RUNNING.name(),
                new ModelIdRequest(model.id(), false),
                new ActionListenerResponseHandler<>(
                        ActionListener.map(listener, answer -> answer.running() ? RUNNING : NOT_RUNNING),
                        JobRunningResponse::new));
    }
}
