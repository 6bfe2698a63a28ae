package dev.compress.plugin.warmup;

import dev.compress.plugin.CompressSettings;
import dev.compress.plugin.mapper.CompressedVectorFieldType;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import org.apache.lucene.search.IndexSearcher;
import org.opensearch.action.support.ActionFilters;
import org.opensearch.action.support.IndicesOptions;
import org.opensearch.action.support.broadcast.node.TransportBroadcastByNodeAction;
import org.opensearch.cluster.ClusterState;
import org.opensearch.cluster.block.ClusterBlockException;
import org.opensearch.cluster.block.ClusterBlockLevel;
import org.opensearch.cluster.metadata.IndexNameExpressionResolver;
import org.opensearch.cluster.metadata.Metadata;
import org.opensearch.cluster.routing.ShardRouting;
import org.opensearch.cluster.routing.ShardsIterator;
import org.opensearch.cluster.service.ClusterService;
import org.opensearch.common.inject.Inject;
import org.opensearch.common.regex.Regex;
import org.opensearch.core.action.support.DefaultShardOperationFailedException;
import org.opensearch.core.common.io.stream.StreamInput;
import org.opensearch.core.index.shard.ShardId;
import org.opensearch.index.IndexService;
import org.opensearch.index.engine.Engine;
import org.opensearch.index.mapper.MappedFieldType;
import org.opensearch.index.mapper.MapperService;
import org.opensearch.index.shard.IndexShard;
import org.opensearch.indices.IndicesService;
import org.opensearch.threadpool.ThreadPool;
import org.opensearch.transport.TransportService;

/**
 * Sends the warmup to every node holding a copy of the indexes' shards (primaries and replicas,
 * since either may answer searches); each node reads its copies' vector files ({@link
 * SegmentFileWarmer}) and then runs its share of the request's searches over them ({@link
 * SearchWarmer}), on the {@code warmer} pool, as long reads must not hold a transport thread.
 * Indexes created without {@code index.compress: true} hold no such files: a request naming one is
 * refused with a 400 before any node reads anything, and one that a pattern reaches is skipped.
 */
public final class TransportWarmupAction
        extends TransportBroadcastByNodeAction<WarmupRequest, WarmupResponse, WarmedShard> {

    private final IndicesService indicesService;
    private final ClusterService clusterService;
    private final IndexNameExpressionResolver indexNameExpressionResolver;

    @Inject
    public TransportWarmupAction(
            ClusterService clusterService,
            TransportService transportService,
            IndicesService indicesService,
            ActionFilters actionFilters,
            IndexNameExpressionResolver indexNameExpressionResolver) {
        super(
                WarmupAction.NAME,
                clusterService,
                transportService,
                actionFilters,
                indexNameExpressionResolver,
                WarmupRequest::new,
                ThreadPool.Names.WARMER);
        this.indicesService = indicesService;
        this.clusterService = clusterService;
        this.indexNameExpressionResolver = indexNameExpressionResolver;
    }

    @Override
    protected WarmedShard readShardResult(StreamInput in) throws IOException {
        return new WarmedShard(in);
    }

    @Override
    protected WarmupResponse newResponse(
            WarmupRequest request,
            int totalShards,
            int successfulShards,
            int failedShards,
            List<WarmedShard> results,
            List<DefaultShardOperationFailedException> shardFailures,
            ClusterState clusterState) {
        long files = results.stream().mapToLong(WarmedShard::files).sum();
        long bytes = results.stream().mapToLong(WarmedShard::bytes).sum();
        long searches = results.stream().mapToLong(WarmedShard::searches).sum();
        return new WarmupResponse(totalShards, successfulShards, failedShards, shardFailures, files, bytes, searches);
    }

    @Override
    protected WarmupRequest readRequestFrom(StreamInput in) throws IOException {
        return new WarmupRequest(in);
    }

    @Override
    protected WarmedShard shardOperation(WarmupRequest request, ShardRouting shardRouting) throws IOException {
        IndexService index =
                indicesService.indexServiceSafe(shardRouting.shardId().getIndex());
        IndexShard shard = index.getShard(shardRouting.shardId().id());
        // the searcher holds its segments' files open, so a merge cannot delete them mid-read
        try (Engine.Searcher searcher = shard.acquireSearcher("compress-warmup")) {
            WarmedShard read = SegmentFileWarmer.warm(searcher.getDirectoryReader());
            IndexSearcher warming = new IndexSearcher(searcher.getDirectoryReader());
            warming.setQueryCache(null);
            return read.withSearches(SearchWarmer.warm(
                    warming, vectorFields(index.mapperService()), searchesFor(request, shardRouting)));
        }
    }

    /**
     * This copy's part of the request's searches: the node's copies of the request's indexes, ordered by
     * shard, split them evenly (the JIT is the node's, so the node's copies need them once between them).
     */
    int searchesFor(WarmupRequest request, ShardRouting copy) {
        ClusterState state = clusterService.state();
        String local = state.nodes().getLocalNodeId();
        List<ShardId> copies = new ArrayList<>();
        for (ShardRouting routing : state.routingTable()
                .allShards(warmed(state, indexNameExpressionResolver.concreteIndexNames(state, request)))) {
            if (local.equals(routing.currentNodeId())) {
                copies.add(routing.shardId());
            }
        }
        copies.sort(null);
        int position = copies.indexOf(copy.shardId());
        // a copy the routing no longer places here (it moved since the request was split) runs them all
        return position < 0 ? request.searches() : SearchWarmer.share(request.searches(), copies.size(), position);
    }

    /** The index's {@code compressed_vector} fields, in name order. */
    private static List<String> vectorFields(MapperService mapperService) {
        List<String> fields = new ArrayList<>();
        for (MappedFieldType type : mapperService.fieldTypes()) {
            if (type instanceof CompressedVectorFieldType) {
                fields.add(type.name());
            }
        }
        fields.sort(null);
        return fields;
    }

    /**
     * The shard copies of the request's {@code index.compress: true} indexes. Another index named in
     * the request (by name or alias) is a 400 before any node reads anything; one that only a pattern
     * or {@code _all} reaches is skipped, so that {@code *} warms every index of ours.
     */
    @Override
    protected ShardsIterator shards(ClusterState state, WarmupRequest request, String[] concreteIndices) {
        Set<String> named = named(state, request);
        String[] notOurs = Arrays.stream(concreteIndices)
                .filter(index -> ours(state, index) == false && named.contains(index))
                .toArray(String[]::new);
        if (notOurs.length > 0) {
            throw new IllegalArgumentException("warmup reads the vector files of [index.compress: true] indexes only; "
                    + Arrays.toString(notOurs) + " " + (notOurs.length == 1 ? "was" : "were")
                    + " created without it");
        }
        return state.routingTable().allShards(warmed(state, concreteIndices));
    }

    /** The indexes of {@code concreteIndices} that warmup reads: those created with {@code index.compress: true}. */
    private static String[] warmed(ClusterState state, String[] concreteIndices) {
        return Arrays.stream(concreteIndices)
                .filter(index -> ours(state, index))
                .toArray(String[]::new);
    }

    private static boolean ours(ClusterState state, String index) {
        return CompressSettings.INDEX_COMPRESS.get(state.metadata().index(index).getSettings());
    }

    /** The indexes the request names outright (by name or alias), not through a pattern or {@code _all}. */
    private Set<String> named(ClusterState state, WarmupRequest request) {
        String[] names = Arrays.stream(request.indices())
                .filter(e -> Regex.isSimpleMatchPattern(e) == false
                        && Metadata.ALL.equals(e) == false
                        && e.startsWith("-") == false)
                .toArray(String[]::new);
        if (names.length == 0) {
            return Set.of();
        }
        return Set.of(indexNameExpressionResolver.concreteIndexNames(state, IndicesOptions.lenientExpandOpen(), names));
    }

    @Override
    protected ClusterBlockException checkGlobalBlock(ClusterState state, WarmupRequest request) {
        return state.blocks().globalBlockedException(ClusterBlockLevel.METADATA_READ);
    }

    @Override
    protected ClusterBlockException checkRequestBlock(ClusterState state, WarmupRequest request, String[] indices) {
        return state.blocks().indicesBlockedException(ClusterBlockLevel.METADATA_READ, indices);
    }
}
