package dev.compress.plugin.query;

import static dev.compress.plugin.query.CompressedKnnQueryBuilder.NAME;

import dev.compress.plugin.query.mask.FeedbackMask;
import dev.compress.plugin.query.mask.LearnedMaskAction;
import dev.compress.plugin.query.mask.LearnedMaskRequest;
import dev.compress.plugin.query.mask.MaskSpec;
import dev.compress.plugin.query.mask.MaskType;
import dev.compress.training.mask.DimensionMasks;
import org.opensearch.action.IndicesRequest;
import org.opensearch.common.SetOnce;
import org.opensearch.core.action.ActionListener;
import org.opensearch.index.query.QueryBuilder;
import org.opensearch.index.query.QueryCoordinatorContext;
import org.opensearch.index.query.QueryRewriteContext;
import org.opensearch.transport.client.Client;

/** The rewrite step of a {@code compressed_knn} query that turns its mask into kept dimensions. */
final class MaskRewrite {

    private MaskRewrite() {}

    /**
     * Turns the mask into its kept dimensions on the (adapted) vector: {@code norm} and {@code cutoff}
     * at once; {@code learned} through the coordinating node's model cache ({@link LearnedMaskAction}), which
     * answers the norm or a PRF mask instead when the request names no size and the model's validation chose one,
     * and, for a model that reads the query's first-pass feedback, is asked again with that feedback;
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
                // taken now, while the rewrite has it; read only when the model asks for feedback
                QueryCoordinatorContext coordinator = context.convertToCoordinatorContext();
                context.registerAsyncAction((client, listener) -> client.execute(
                        LearnedMaskAction.INSTANCE,
                        new LearnedMaskRequest(q.mask(), q.vector(), null),
                        ActionListener.wrap(
                                response -> {
                                    if (response.mask() != null) {
                                        next.set(response.mask());
                                        listener.onResponse(null);
                                        return;
                                    }
                                    scoreWithFeedback(client, q, coordinator, response.feedbackDocs(), next, listener);
                                },
                                listener::onFailure)));
                return q.rebuilt(q.toBuilder().pendingMask(next::get));
            }
            case DIME_PRF, ECLIPSE_PRF -> {
                IndicesRequest request = searchRequest(q, context.convertToCoordinatorContext());
                q.mask().keep(q.vector().length); // a bad [mask.dimensions] fails before the first pass runs
                QueryBuilder firstPass = firstPass(q, FeedbackMask.depth(q.mask()));
                SetOnce<MaskSpec> kept = new SetOnce<>();
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

    /**
     * For a mask model that reads the query's first-pass feedback: collects the vectors of the first pass's top
     * {@code feedbackDocs} documents, then asks the model again with them.
     */
    private static void scoreWithFeedback(
            Client client,
            CompressedKnnQueryBuilder q,
            QueryCoordinatorContext coordinator,
            int feedbackDocs,
            SetOnce<MaskSpec> next,
            ActionListener<?> listener) {
        FeedbackMask.collect(
                client,
                searchRequest(q, coordinator),
                q.field(),
                firstPass(q, feedbackDocs),
                new FeedbackMask.Sets(MaskType.LEARNED.jsonName(), feedbackDocs, feedbackDocs, 0),
                ActionListener.wrap(
                        feedback -> client.execute(
                                LearnedMaskAction.INSTANCE,
                                new LearnedMaskRequest(q.mask(), q.vector(), feedback.positives()),
                                ActionListener.wrap(
                                        scored -> {
                                            next.set(scored.mask());
                                            listener.onResponse(null);
                                        },
                                        listener::onFailure)),
                        listener::onFailure));
    }

    /** The search request whose indices a first pass searches; a mask that runs one fails without it. */
    private static IndicesRequest searchRequest(CompressedKnnQueryBuilder q, QueryCoordinatorContext coordinator) {
        if (coordinator == null || coordinator.getSearchRequest() == null) {
            throw new IllegalArgumentException("[" + NAME + "] [mask] type ["
                    + q.mask().type().jsonName() + "] runs a first-pass search and needs a search request's indices");
        }
        if (CompressedKnnQueryBuilder.pointInTime(coordinator.getSearchRequest())) {
            // the first pass would search the live indices, not the point in time's snapshot
            throw new IllegalArgumentException(
                    "[" + NAME + "] [mask] type [" + q.mask().type().jsonName()
                            + "] runs a first-pass search and cannot be used with a point in time");
        }
        return coordinator.getSearchRequest();
    }

    /**
     * The unmasked query, {@code depth} hits deep, and at least as deep as this query: its top hits are the feedback,
     * not those of a narrower search.
     */
    private static QueryBuilder firstPass(CompressedKnnQueryBuilder q, int depth) {
        int k = q.k() == null ? depth : Math.max(depth, q.k());
        return CompressedKnnQueryBuilder.builder()
                .field(q.field())
                .vector(q.vector())
                .k(k)
                .numCandidates(q.numCandidates() == null ? null : Math.max(q.numCandidates(), k))
                .rescore(q.rescore())
                .filter(q.filter())
                .ignoreUnmapped(q.ignoreUnmapped())
                .counters(q.counters())
                .build();
    }
}
