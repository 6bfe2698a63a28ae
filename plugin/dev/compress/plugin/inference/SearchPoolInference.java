package dev.compress.plugin.inference;

import java.util.function.Function;
import org.opensearch.action.ActionRunnable;
import org.opensearch.core.action.ActionListener;
import org.opensearch.threadpool.ThreadPool;

/**
 * Query-time work with a cached model, run on the search thread pool. A query is rewritten on the thread that
 * received the search request, a network thread for REST, and on a cache hit the model answers on that same
 * thread: a forward pass there would hold up every other request the thread serves. A full search pool answers
 * 429, as a search would.
 */
public final class SearchPoolInference {

    private final ModelCache cache;
    private final ThreadPool threadPool;

    public SearchPoolInference(ModelCache cache, ThreadPool threadPool) {
        this.cache = cache;
        this.threadPool = threadPool;
    }

    /** {@code compute} applied to model {@code modelId} on a search thread; what it throws goes to {@code listener}. */
    public <T> void apply(String modelId, Function<LoadedModel, T> compute, ActionListener<T> listener) {
        cache.get(
                modelId,
                ActionListener.wrap(
                        model -> threadPool
                                .executor(ThreadPool.Names.SEARCH)
                                .execute(ActionRunnable.supply(listener, () -> compute.apply(model))),
                        listener::onFailure));
    }
}
