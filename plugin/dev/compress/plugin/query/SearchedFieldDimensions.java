package dev.compress.plugin.query;

import dev.compress.plugin.mapper.CompressedVectorFieldMapper;
import dev.compress.plugin.mapper.MappingSourcePath;
import java.util.Arrays;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.opensearch.action.OriginalIndices;
import org.opensearch.action.support.IndicesOptions;
import org.opensearch.cluster.ClusterState;
import org.opensearch.cluster.metadata.IndexMetadata;
import org.opensearch.cluster.metadata.IndexNameExpressionResolver;
import org.opensearch.cluster.metadata.MappingMetadata;
import org.opensearch.transport.RemoteClusterAware;

/**
 * The dimensions a {@code compressed_vector} field has in the indices a search names, read from the cluster's
 * mappings on the coordinating node: which output of a model with several the shards can take, decided before any
 * shard sees the vector. Each index's mapping is parsed, so the walk stops at the second dimension it finds, when
 * there is no single answer.
 */
final class SearchedFieldDimensions {

    private SearchedFieldDimensions() {}

    /**
     * The field's dimensions, in increasing order, at most two; empty where no searched index maps it as a
     * {@code compressed_vector} (directly or through a field alias).
     */
    static Set<Integer> of(
            ClusterState state, IndexNameExpressionResolver resolver, OriginalIndices searched, String field) {
        Set<Integer> dimensions = new TreeSet<>();
        // the search itself reports missing indices, and remote clusters' mappings are not in this cluster's state
        IndicesOptions options = searched.indicesOptions();
        IndicesOptions lenient = IndicesOptions.fromOptions(
                true, true, options.expandWildcardsOpen(), options.expandWildcardsClosed(), options);
        String[] local = Arrays.stream(searched.indices())
                .filter(name -> isRemote(name) == false)
                .toArray(String[]::new);
        if (local.length == 0 && searched.indices().length > 0) {
            return dimensions;
        }
        for (String index : resolver.concreteIndexNames(state, lenient, true, local)) {
            IndexMetadata metadata = state.metadata().index(index);
            MappingMetadata mapping = metadata == null ? null : metadata.mapping();
            Integer dimension = mapping == null ? null : dimension(mapping.sourceAsMap(), field);
            if (dimension != null) {
                dimensions.add(dimension);
                if (dimensions.size() > 1) {
                    break;
                }
            }
        }
        return dimensions;
    }

    /** The field's dimension where it is a {@code compressed_vector}, following one field alias; null otherwise. */
    private static Integer dimension(Map<String, Object> mapping, String field) {
        MappingSourcePath path = MappingSourcePath.throughAlias(mapping, field);
        if (path == null
                || CompressedVectorFieldMapper.CONTENT_TYPE.equals(path.field().get("type")) == false) {
            return null;
        }
        return path.field().get("dimension") instanceof Number dimension ? dimension.intValue() : null;
    }

    /** Whether {@code name} is a remote cluster's expression ({@code cluster:index}); date math ({@code <...>}) is local. */
    private static boolean isRemote(String name) {
        int separator = name.indexOf(RemoteClusterAware.REMOTE_CLUSTER_INDEX_SEPARATOR);
        return separator > 0 && name.startsWith("<") == false;
    }
}
