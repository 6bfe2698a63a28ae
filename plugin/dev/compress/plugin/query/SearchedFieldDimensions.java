package dev.compress.plugin.query;

import dev.compress.plugin.mapper.MappingSourcePath;
import java.util.Arrays;
import java.util.Set;
import java.util.TreeSet;
import org.opensearch.action.support.IndicesOptions;
import org.opensearch.cluster.ClusterState;
import org.opensearch.cluster.metadata.IndexMetadata;
import org.opensearch.cluster.metadata.IndexNameExpressionResolver;
import org.opensearch.cluster.metadata.MappingMetadata;
import org.opensearch.transport.RemoteClusterAware;

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
        // the search itself reports missing indices, and remote clusters' mappings are not in this cluster's state
        IndicesOptions lenient = IndicesOptions.fromOptions(
                true, true, options.expandWildcardsOpen(), options.expandWildcardsClosed(), options);
        String[] local = Arrays.stream(indices)
                .filter(name -> name.indexOf(RemoteClusterAware.REMOTE_CLUSTER_INDEX_SEPARATOR) < 0)
                .toArray(String[]::new);
        if (local.length == 0 && indices.length > 0) {
            return dimensions;
        }
        for (String index : resolver.concreteIndexNames(state, lenient, local)) {
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
