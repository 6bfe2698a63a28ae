package dev.compress.plugin.model.action;

import dev.compress.plugin.model.ModelIndex;
import dev.compress.plugin.model.ModelState;

import org.opensearch.OpenSearchStatusException;
import org.opensearch.action.support.ActionFilters;
import org.opensearch.action.support.HandledTransportAction;
import org.opensearch.cluster.service.ClusterService;
import org.opensearch.common.inject.Inject;
import org.opensearch.core.action.ActionListener;
import org.opensearch.core.rest.RestStatus;
import org.opensearch.ingest.IngestMetadata;
import org.opensearch.ingest.PipelineConfiguration;
import org.opensearch.tasks.Task;
import org.opensearch.transport.TransportService;

import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * {@code DELETE _plugins/compress/models/{id}}: refused (409) while the model trains or while an
 * ingest pipeline's {@code compress} processor names it; otherwise removes it and its chunks.
 */
public final class TransportDeleteModelAction extends HandledTransportAction<ModelIdRequest, MapResponse> {

    private final ModelIndex models;
    private final ClusterService clusterService;

    @Inject
    public TransportDeleteModelAction(TransportService transportService, ActionFilters actionFilters, ModelIndex models, ClusterService clusterService) {
        super(ModelActions.DELETE.name(), transportService, actionFilters, ModelIdRequest::new);
        this.models = models;
        this.clusterService = clusterService;
    }

    @Override
    protected void doExecute(Task task, ModelIdRequest request, ActionListener<MapResponse> listener) {
        String id = request.modelId();
        models.get(id, ActionListener.wrap(model -> {
            if (model.state() == ModelState.TRAINING) {
                listener.onFailure(new OpenSearchStatusException("model [" + id + "] is training; cancel it first with POST _plugins/compress/models/" + id + "/_cancel", RestStatus.CONFLICT));
                return;
            }
            TreeSet<String> pipelines = pipelinesUsing(id);
            if (pipelines.isEmpty() == false) {
                listener.onFailure(new OpenSearchStatusException("model [" + id + "] is used by ingest pipeline(s) " + pipelines + "; remove them first", RestStatus.CONFLICT));
                return;
            }
            models.delete(model, ActionListener.wrap(ok -> listener.onResponse(new MapResponse(Map.of("model_id", id, "result", "deleted"), RestStatus.OK)), listener::onFailure));
        }, listener::onFailure));
    }

    /** Pipelines with a {@code compress} processor (at any nesting depth) whose {@code model_id} is {@code id}. */
    private TreeSet<String> pipelinesUsing(String id) {
        TreeSet<String> using = new TreeSet<>();
        IngestMetadata ingest = clusterService.state().metadata().custom(IngestMetadata.TYPE);
        if (ingest != null) {
            for (PipelineConfiguration pipeline : ingest.getPipelines().values()) {
                if (namesModel(pipeline.getConfigAsMap(), id)) {
                    using.add(pipeline.getId());
                }
            }
        }
        return using;
    }

    private static boolean namesModel(Object node, String id) {
        if (node instanceof Map<?, ?> map) {
            if (map.get("compress") instanceof Map<?, ?> processor && id.equals(processor.get("model_id"))) {
                return true;
            }
            return map.values().stream().anyMatch(v -> namesModel(v, id));
        }
        return node instanceof List<?> list && list.stream().anyMatch(v -> namesModel(v, id));
    }
}
