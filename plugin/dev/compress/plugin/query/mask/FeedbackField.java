package dev.compress.plugin.query.mask;

import dev.compress.plugin.mapper.MappingSourcePath;
import java.util.HashMap;
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
 * Where a first pass finds the feedback vectors of a searched vector field, read from the mappings of the indices
 * it searches: the field each index keeps them under in {@code _source} (the field a field alias names), and the
 * innermost {@code nested} object the field lies in, since a field there can only be searched inside a {@code
 * nested} query on that path, so the first pass runs as one.
 *
 * @param field        the searched field, as the search names it
 * @param nestedPath   the nested object's path, or null when the field is in none (or mapped in none of the indices)
 * @param sourceFields the field's name in {@code _source} by concrete index, for the indices that map it
 */
record FeedbackField(String field, String nestedPath, Map<String, String> sourceFields) {

    /**
     * Reads the mappings as the plugin, so that a user who may search the indices needs no mapping permission;
     * {@code listener} runs in the caller's context again.
     */
    static void of(Client client, IndicesRequest request, String field, ActionListener<FeedbackField> listener) {
        GetMappingsRequest mappings = new GetMappingsRequest()
                .indices(request.indices())
                .indicesOptions(request.indicesOptions())
                .local(true);
        ThreadContext threadContext = client.threadPool().getThreadContext();
        ActionListener<FeedbackField> restoring =
                new ContextPreservingActionListener<>(threadContext.newRestorableContext(false), listener);
        try (ThreadContext.StoredContext ignored = threadContext.stashContext()) {
            client.admin()
                    .indices()
                    .getMappings(
                            mappings, ActionListener.map(restoring, response -> agreed(response.mappings(), field)));
        }
    }

    /**
     * The field's place in every index that maps it. The nested path must agree: a field nested in one index and
     * not in another (or under another path) has no first pass that searches both, and is a 400.
     */
    static FeedbackField agreed(Map<String, MappingMetadata> mappings, String field) {
        String path = null;
        String pathIndex = null;
        Map<String, String> sourceFields = new HashMap<>();
        for (Map.Entry<String, MappingMetadata> index : mappings.entrySet()) {
            if (index.getValue() == null) {
                continue;
            }
            MappingSourcePath found =
                    MappingSourcePath.throughAlias(index.getValue().sourceAsMap(), field);
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
            sourceFields.put(index.getKey(), found.name());
        }
        return new FeedbackField(field, path, Map.copyOf(sourceFields));
    }

    /** The field {@code index} keeps the searched field's vectors under in {@code _source}. */
    String sourceField(String index) {
        return sourceFields.getOrDefault(index, field);
    }

    /** {@link #sourceField} relative to a chunk of the nested object. */
    String chunkField(String index) {
        return sourceField(index).substring(nestedPath.length() + 1);
    }

    private static String where(String nestedPath) {
        return nestedPath == null ? "outside any nested object" : "in nested object [" + nestedPath + "]";
    }
}
