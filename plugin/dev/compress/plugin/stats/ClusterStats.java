package dev.compress.plugin.stats;

import dev.compress.plugin.model.ModelIndex;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.opensearch.cluster.ClusterState;
import org.opensearch.cluster.health.ClusterHealthStatus;
import org.opensearch.cluster.health.ClusterIndexHealth;
import org.opensearch.cluster.metadata.IndexMetadata;
import org.opensearch.cluster.routing.IndexRoutingTable;

/**
 * The cluster-level statistics of {@code GET _plugins/compress/stats}, read from the coordinating
 * node's cluster state: the model index's health as {@code _cluster/health} gives it
 * ({@code green}, {@code yellow}, {@code red}), null while the index does not exist (no model was
 * ever trained or stored).
 */
public final class ClusterStats {

    public static final String MODEL_INDEX_STATUS = "model_index_status";

    private ClusterStats() {}

    public static Set<String> names() {
        return Set.of(MODEL_INDEX_STATUS);
    }

    /** The statistics named in {@code wanted}, every one when it is empty. */
    public static Map<String, Object> read(ClusterState state, Set<String> wanted) {
        Map<String, Object> values = new LinkedHashMap<>();
        if (wanted.isEmpty() || wanted.contains(MODEL_INDEX_STATUS)) {
            values.put(MODEL_INDEX_STATUS, modelIndexStatus(state));
        }
        return values;
    }

    private static String modelIndexStatus(ClusterState state) {
        IndexMetadata metadata = state.metadata().index(ModelIndex.NAME);
        if (metadata == null) {
            return null;
        }
        IndexRoutingTable routing = state.routingTable().index(ModelIndex.NAME);
        ClusterHealthStatus status =
                routing == null ? ClusterHealthStatus.RED : new ClusterIndexHealth(metadata, routing).getStatus();
        return status.name().toLowerCase(Locale.ROOT);
    }
}
