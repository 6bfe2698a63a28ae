package dev.compress.plugin.ingest;

import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.opensearch.cluster.ClusterState;
import org.opensearch.ingest.IngestMetadata;
import org.opensearch.ingest.PipelineConfiguration;

/**
 * Which ingest pipelines name a model in a {@code compress} processor, anywhere in their
 * configuration (top level, {@code on_failure}, or nested in another processor such as {@code foreach}).
 * The model DELETE refuses (409) while this is not empty.
 */
public final class ModelPipelines {

    private ModelPipelines() {}

    public static List<String> using(ClusterState state, String modelId) {
        IngestMetadata ingest = state.metadata().custom(IngestMetadata.TYPE);
        if (ingest == null) {
            return List.of();
        }
        TreeSet<String> ids = new TreeSet<>();
        for (PipelineConfiguration pipeline : ingest.getPipelines().values()) {
            if (names(pipeline.getConfigAsMap(), modelId)) {
                ids.add(pipeline.getId());
            }
        }
        return List.copyOf(ids);
    }

    private static boolean names(Object node, String modelId) {
        if (node instanceof Map<?, ?> map) {
            if (map.get(CompressProcessor.TYPE) instanceof Map<?, ?> processor
                    && modelId.equals(processor.get("model_id"))) {
                return true;
            }
            return map.values().stream().anyMatch(value -> names(value, modelId));
        }
        if (node instanceof List<?> list) {
            return list.stream().anyMatch(value -> names(value, modelId));
        }
        return false;
    }
}
