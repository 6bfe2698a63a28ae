package dev.compress.plugin.query;

import static dev.compress.plugin.query.CompressedKnnQueryBuilder.NAME;

import dev.compress.plugin.query.mask.FeedbackMask;
import dev.compress.plugin.query.mask.LearnedMaskAction;
import dev.compress.plugin.query.mask.LearnedMaskRequest;
import dev.compress.plugin.query.mask.MaskSpec;
import dev.compress.training.mask.DimensionMasks;
import org.opensearch.action.search.SearchRequest;
import org.opensearch.common.SetOnce;
import org.opensearch.core.action.ActionListener;
import org.opensearch.index.query.QueryBuilder;
import org.opensearch.index.query.QueryCoordinatorContext;
import org.opensearch.index.query.QueryRewriteContext;

/** The rewrite step of a {@code compressed_knn} query that turns its mask into kept dimensions. */
final class MaskRewrite {

    private MaskRewrite() {}

    /**
     * Turns the mask into its kept dimensions on the (adapted) vector: {@code norm} and {@code cutoff}
     * at once; {@code learned} through the coordinating node's model cache ({@link LearnedMaskAction}), which
     * answers the norm or a PRF mask instead when the request names no size and the model's validation chose one;
     * the PRF masks from a first-pass search of the request's indices ({@link FeedbackMask}). Shards
     * receive an {@code explicit} mask.
     */
    static QueryBuilder resolve(CompressedKnnQueryBuilder q, QueryRewriteContext context) {
        if (q.pendingMask() != null) {
            // explicit, or (a learned mask whose validation chose a PRF mask) a PRF mask the next round resolves
            MaskSpec next = q.pendingMask().get();
            return next == null ? q : q.rebuilt(q.toBuilder().mask(next));
        }
        switch (q.mask().type()) {
            case NORM -> {
                return q.rebuilt(q.toBuilder()
                        .mask(MaskSpec.explicit(
                                DimensionMasks.norm(q.vector(), q.mask().keep(q.vector().length)))));
            }
            case CUTOFF -> {
                int dim = q.vector().length;
                return q.rebuilt(q.toBuilder()
                        .mask(MaskSpec.explicit(
                                DimensionMasks.cutoff(dim, q.mask().keep(dim)))));
            }
            case LEARNED -> {
                SetOnce<MaskSpec> next = new SetOnce<>();
                LearnedMaskRequest request = new LearnedMaskRequest(q.mask(), q.vector());
                context.registerAsyncAction((client, listener) -> client.execute(
                        LearnedMaskAction.INSTANCE,
                        request,
                        ActionListener.wrap(
                                response -> {
                                    next.set(response.mask());
                                    listener.onResponse(null);
                                },
                                listener::onFailure)));
                return q.rebuilt(q.toBuilder().pendingMask(next::get));
            }
            case DIME_PRF, ECLIPSE_PRF -> {
                QueryCoordinatorContext coordinator = context.convertToCoordinatorContext();
                if (coordinator == null || coordinator.getSearchRequest() == null) {
                    throw new IllegalArgumentException("[" + NAME + "] [mask] type ["
                            + q.mask().type().jsonName()
                            + "] runs a first-pass search and needs a search request's indices");
                }
                if (coordinator.getSearchRequest() instanceof SearchRequest search
                        && search.pointInTimeBuilder() != null) {
                    // the first pass would search the live indices, not the point in time's snapshot
                    throw new IllegalArgumentException("[" + NAME + "] [mask] type ["
                            + q.mask().type().jsonName()
                            + "] runs a first-pass search and cannot be used with a point in time");
                }
                q.mask().keep(q.vector().length); // a bad [mask.dimensions] fails before the first pass runs
                // at least as deep as this query: its top hits are the feedback, not those of a narrower search
                int firstPassK =
                        q.k() == null ? FeedbackMask.depth(q.mask()) : Math.max(FeedbackMask.depth(q.mask()), q.k());
                Integer firstPassCandidates =
                        q.numCandidates() == null ? null : Math.max(q.numCandidates(), firstPassK);
                QueryBuilder firstPass = CompressedKnnQueryBuilder.builder()
                        .field(q.field())
                        .vector(q.vector())
                        .k(firstPassK)
                        .numCandidates(firstPassCandidates)
                        .rescore(q.rescore())
                        .filter(q.filter())
                        .ignoreUnmapped(q.ignoreUnmapped())
                        .counters(q.counters())
                        .build();
                SetOnce<MaskSpec> kept = new SetOnce<>();
                var request = coordinator.getSearchRequest();
                context.registerAsyncAction((client, listener) -> FeedbackMask.compute(
                        client,
                        request,
                        q.field(),
                        firstPass,
                        q.mask(),
                        q.vector(),
                        ActionListener.wrap(
                                dims -> {
                                    kept.set(MaskSpec.explicit(dims));
                                    listener.onResponse(null);
                                },
                                listener::onFailure)));
                return q.rebuilt(q.toBuilder().pendingMask(kept::get));
            }
            default ->
                throw new IllegalStateException(
                        "unresolved mask type " + q.mask().type());
        }
    }
}
