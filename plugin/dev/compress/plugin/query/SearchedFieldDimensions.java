package dev.compress.plugin.query;

import dev.compress.plugin.mapper.MappingSourcePath;
import java.util.Set;
import java.util.TreeSet;
import org.opensearch.action.support.IndicesOptions;
import org.opensearch.cluster.ClusterState;
import org.opensearch.cluster.metadata.IndexMetadata;
import org.opensearch.cluster.metadata.IndexNameExpressionResolver;
import org.opensearch.cluster.metadata.MappingMetadata;

/**
 * The dimensions a field has in the indices a search names, read from the cluster's mappings on the coordinating
 * node: which output of a model with several the shards can take, decided before any shard sees the vector.
 */
final class SearchedFieldDimensions {

    private SearchedFieldDimensions() {}

    /** The field's dimensions, in increasing order; empty where no searched index maps it with a dimension. */
    static Set<Integer> of(
            ClusterState state,
            IndexNameExpressionResolver resolver,
            String[] indices,
            IndicesOptions options,
            String field) {
        Set<Integer> dimensions = new TreeSet<>();
        for (String index : resolver.concreteIndexNames(state, options, indices)) {
            IndexMetadata metadata = state.metadata().index(index);
            MappingMetadata mapping = metadata == null ? null : metadata.mapping();
            MappingSourcePath path = mapping == null ? null : MappingSourcePath.of(mapping.sourceAsMap(), field);
            if (path != null && path.field().get("dimension") instanceof Number dimension) {
                dimensions.add(dimension.intValue());
            }
        }
        return dimensions;
    }
}
