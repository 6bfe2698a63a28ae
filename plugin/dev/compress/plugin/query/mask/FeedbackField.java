package dev.compress.plugin.query.mask;

import dev.compress.plugin.mapper.MappingSourcePath;
import java.util.Map;
import java.util.Objects;
import org.opensearch.action.IndicesRequest;
import org.opensearch.action.admin.indices.mapping.get.GetMappingsRequest;
import org.opensearch.action.support.ContextPreservingActionListener;
import org.opensearch.cluster.metadata.MappingMetadata;
import org.opensearch.common.util.concurrent.ThreadContext;
import org.opensearch.core.action.ActionListener;
import org.opensearch.transport.client.Client;

/**
 * The innermost {@code nested} object a vector field lies in, read from the mappings of the indices a first pass
 * searches: a field there can only be searched inside a {@code nested} query on that path, so the first pass runs
 * as one.
 */
final class NestedPath {

    private NestedPath() {}

    /**
     * The path, or null when the field is in no nested object (or mapped in none of the indices). The mappings are
     * read as the plugin, so that a user who may search the indices needs no mapping permission; {@code listener}
     * runs in the caller's context again.
     */
    static void of(Client client, IndicesRequest request, String field, ActionListener<String> listener) {
        GetMappingsRequest mappings = new GetMappingsRequest()
                .indices(request.indices())
                .indicesOptions(request.indicesOptions())
                .local(true);
        ThreadContext threadContext = client.threadPool().getThreadContext();
        ActionListener<String> restoring =
                new ContextPreservingActionListener<>(threadContext.newRestorableContext(false), listener);
        try (ThreadContext.StoredContext ignored = threadContext.stashContext()) {
            client.admin()
                    .indices()
                    .getMappings(
                            mappings, ActionListener.map(restoring, response -> agreed(response.mappings(), field)));
        }
    }

    /**
     * The one path every index that maps the field gives it; a field nested in one index and not in another (or
     * under another path) has no first pass that searches both, and is a 400.
     */
    static String agreed(Map<String, MappingMetadata> mappings, String field) {
        String path = null;
        String pathIndex = null;
        for (Map.Entry<String, MappingMetadata> index : mappings.entrySet()) {
            if (index.getValue() == null) {
                continue;
            }
            MappingSourcePath found = MappingSourcePath.of(index.getValue().sourceAsMap(), field);
            if (found == null) {
                continue; // not mapped here: the first pass finds nothing in this index
            }
            String nested = found.innermostNested();
            if (pathIndex != null && Objects.equals(path, nested) == false) {
                throw new IllegalArgumentException("[mask] field [" + field + "] lies " + where(nested)
                        + " in index [" + index.getKey() + "] but " + where(path) + " in index [" + pathIndex
                        + "]: one first-pass search cannot search both");
            }
            path = nested;
            pathIndex = index.getKey();
        }
        return path;
    }

    private static String where(String nestedPath) {
        return nestedPath == null ? "outside any nested object" : "in nested object [" + nestedPath + "]";
    }
}
