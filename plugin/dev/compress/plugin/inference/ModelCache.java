package dev.compress.plugin.inference;

import dev.compress.plugin.CompressSettings;
import dev.compress.plugin.stats.CompressCounters;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicLong;
import org.opensearch.action.support.ContextPreservingActionListener;
import org.opensearch.common.cache.Cache;
import org.opensearch.common.cache.CacheBuilder;
import org.opensearch.common.cache.RemovalNotification;
import org.opensearch.common.cache.RemovalReason;
import org.opensearch.common.settings.Setting;
import org.opensearch.common.settings.Setting.Property;
import org.opensearch.common.unit.MemorySizeValue;
import org.opensearch.common.util.concurrent.ThreadContext;
import org.opensearch.core.action.ActionListener;
import org.opensearch.core.common.unit.ByteSizeValue;

/**
 * The models this node has loaded for ingest and query-time adaptation, least recently used first
 * out once their total size passes {@link #MAX_SIZE}. Loads are asynchronous and coalesced: callers
 * asking for a model that is being loaded wait for that load. Failed loads are not remembered, so a
 * model that is still training can be used as soon as it is created. Models are immutable once
 * created, so the only invalidations are {@link #evict} and {@link #evictAll} (on delete, and on
 * an operator's request, broadcast by {@link EvictModelAction}). {@link #MAX_SIZE} is dynamic: a
 * smaller limit evicts least recently used models at once.
 */
public final class ModelCache {

    /**
     * Bytes of model files the cache keeps; a model larger than this is served but not kept. Bytes or a share of the
     * heap, never negative: a bad value is refused when it is set, since a node that applied it could no longer apply
     * cluster states.
     */
    public static final Setting<ByteSizeValue> MAX_SIZE = new Setting<>(
            "compress.model_cache.max_size",
            "10%",
            value -> CompressSettings.nonNegative(
                    "compress.model_cache.max_size",
                    value,
                    MemorySizeValue.parseBytesSizeValueOrHeapRatio(value, "compress.model_cache.max_size")),
            Property.NodeScope,
            Property.Dynamic);

    private final ModelLoader loader;
    private volatile long maxBytes;
    private final ThreadContext threadContext;
    private final CompressCounters counters;
    private final Cache<String, LoadedModel> cache;
    /** Loads in flight, guarded by {@code this} together with additions to and removals from {@link #cache}. */
    private final Map<String, PendingLoad> pending = new HashMap<>();

    private final AtomicLong loads = new AtomicLong();

    private static final class PendingLoad {
        final List<ActionListener<LoadedModel>> listeners = new ArrayList<>();
    }

    public ModelCache(ModelLoader loader, long maxBytes, ThreadContext threadContext, CompressCounters counters) {
        this.loader = loader;
        this.maxBytes = maxBytes;
        this.threadContext = threadContext;
        this.counters = counters;
        this.cache = CacheBuilder.<String, LoadedModel>builder()
                .setMaximumWeight(maxBytes)
                .weigher((id, model) -> model.weightBytes())
                .removalListener(this::removed)
                .build();
    }

    private void removed(RemovalNotification<String, LoadedModel> removal) {
        if (removal.getRemovalReason() == RemovalReason.EVICTED) {
            counters.modelCacheEviction();
        }
    }

    /** A new {@link #MAX_SIZE}: a smaller one evicts least recently used models until the rest fit. */
    public void resize(long newMaxBytes) {
        synchronized (this) {
            maxBytes = newMaxBytes;
            cache.setMaximumWeight(newMaxBytes);
            cache.refresh();
        }
    }

    /** Answers at once when the model is cached, otherwise once it is loaded (on the loader's thread). */
    public void get(String modelId, ActionListener<LoadedModel> listener) {
        LoadedModel cached = cache.get(modelId);
        if (cached != null) {
            counters.modelCacheHit();
            listener.onResponse(cached);
            return;
        }
        // a load answers every caller that joined it: each must get its own thread context back
        ActionListener<LoadedModel> waiting =
                ContextPreservingActionListener.wrapPreservingContext(listener, threadContext);
        PendingLoad load;
        synchronized (this) {
            cached = cache.get(modelId);
            load = cached != null ? null : pending.get(modelId);
            if (cached == null) {
                counters.modelCacheMiss();
                if (load != null) {
                    load.listeners.add(waiting);
                    return;
                }
                load = new PendingLoad();
                load.listeners.add(waiting);
                pending.put(modelId, load);
            }
        }
        if (cached != null) {
            counters.modelCacheHit();
            listener.onResponse(cached);
            return;
        }
        loads.incrementAndGet();
        PendingLoad started = load;
        loader.load(
                modelId,
                ActionListener.wrap(model -> complete(modelId, started, model), e -> fail(modelId, started, e)));
    }

    private void complete(String modelId, PendingLoad load, LoadedModel model) {
        synchronized (this) {
            // not kept when evicted meanwhile (deleted), or when it alone exceeds the limit
            if (pending.remove(modelId, load) && model.weightBytes() <= maxBytes) {
                cache.put(modelId, model);
            }
        }
        ActionListener.onResponse(load.listeners, model);
    }

    private void fail(String modelId, PendingLoad load, Exception e) {
        synchronized (this) {
            pending.remove(modelId, load);
        }
        ActionListener.onFailure(load.listeners, e);
    }

    /** Drops the model and forgets a load in flight; true when there was something to drop. */
    public boolean evict(String modelId) {
        synchronized (this) {
            boolean wasLoading = pending.remove(modelId) != null;
            boolean wasCached = cache.get(modelId) != null;
            cache.invalidate(modelId);
            return wasLoading || wasCached;
        }
    }

    /** Drops every model and forgets every load in flight; answers the ids dropped. */
    public Set<String> evictAll() {
        synchronized (this) {
            Set<String> dropped = new TreeSet<>(pending.keySet());
            pending.clear();
            cache.keys().forEach(dropped::add);
            cache.invalidateAll();
            return dropped;
        }
    }

    public Set<String> cachedModelIds() {
        Set<String> ids = new TreeSet<>();
        cache.keys().forEach(ids::add);
        return ids;
    }

    public long cachedBytes() {
        return cache.weight();
    }

    public int cachedCount() {
        return cache.count();
    }

    public long maxBytes() {
        return maxBytes;
    }

    /** Loads started since the node started (cache misses that were not joined to a load in flight). */
    public long loadCount() {
        return loads.get();
    }
}
