package dev.compress.plugin.inference;

import dev.compress.plugin.stats.CompressCounters;
import dev.compress.plugin.stats.NodeStats;
import dev.compress.training.model.ModelArtifact;
import dev.compress.training.model.ModelFileTests;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.opensearch.action.support.PlainActionFuture;
import org.opensearch.common.settings.Settings;
import org.opensearch.common.util.concurrent.ThreadContext;
import org.opensearch.core.action.ActionListener;
import org.opensearch.test.OpenSearchTestCase;

/** LRU by bytes, coalesced loads, eviction (also during a load), failures not remembered. */
public class ModelCacheTests extends OpenSearchTestCase {

    private final ThreadContext threadContext = new ThreadContext(Settings.EMPTY);

    private static final ModelArtifact ARTIFACT = ModelFileTests.sampleModel(5, 8, 6, 4);

    /** A loader whose loads the test completes by hand. */
    private static final class ManualLoader implements ModelLoader {
        final Map<String, List<ActionListener<LoadedModel>>> started = new HashMap<>();
        final Map<String, Long> weights = new HashMap<>();

        @Override
        public void load(String modelId, ActionListener<LoadedModel> listener) {
            started.computeIfAbsent(modelId, id -> new ArrayList<>()).add(listener);
        }

        LoadedModel model(String id) {
            dev.compress.plugin.model.ModelRecord record = new dev.compress.plugin.model.ModelRecord(
                    id,
                    Map.of(
                            "input_dimension",
                            ARTIFACT.metadata().inputDim(),
                            "dimensions",
                            ARTIFACT.metadata().outputDims()));
            LoadedModel loaded =
                    IndexModelLoader.parse(record, dev.compress.training.model.ModelFile.toBytes(ARTIFACT));
            return new LoadedModel(id, loaded.metadata(), loaded.encoder(), weights.getOrDefault(id, 100L));
        }

        void complete(String id) {
            started.get(id).remove(0).onResponse(model(id));
        }
    }

    private static LoadedModel getNow(ModelCache cache, ManualLoader loader, String id) {
        PlainActionFuture<LoadedModel> future = PlainActionFuture.newFuture();
        cache.get(id, future);
        if (future.isDone() == false) {
            loader.complete(id);
        }
        return future.actionGet();
    }

    public void testConcurrentGetsShareOneLoad() {
        ManualLoader loader = new ManualLoader();
        ModelCache cache = new ModelCache(loader, 1000, threadContext, new CompressCounters());
        List<PlainActionFuture<LoadedModel>> futures = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            PlainActionFuture<LoadedModel> future = PlainActionFuture.newFuture();
            cache.get("m", future);
            futures.add(future);
        }
        assertEquals(1, cache.loadCount());
        assertEquals(1, loader.started.get("m").size());
        assertFalse(futures.get(0).isDone());
        loader.complete("m");
        LoadedModel first = futures.get(0).actionGet();
        for (PlainActionFuture<LoadedModel> future : futures) {
            assertSame(first, future.actionGet());
        }
        PlainActionFuture<LoadedModel> cached = PlainActionFuture.newFuture();
        cache.get("m", cached);
        assertTrue("a cached model answers at once", cached.isDone());
        assertSame(first, cached.actionGet());
        assertEquals(1, cache.loadCount());
    }

    public void testLeastRecentlyUsedModelLeavesFirstWhenOverTheLimit() {
        ManualLoader loader = new ManualLoader();
        ModelCache cache = new ModelCache(loader, 250, threadContext, new CompressCounters());
        getNow(cache, loader, "a");
        getNow(cache, loader, "b");
        getNow(cache, loader, "a"); // a is now more recent than b
        getNow(cache, loader, "c");
        assertEquals(Set.of("a", "c"), cache.cachedModelIds());
        assertEquals(200, cache.cachedBytes());
        assertEquals(3, cache.loadCount());
    }

    public void testModelLargerThanTheLimitIsServedButNotKept() {
        ManualLoader loader = new ManualLoader();
        loader.weights.put("big", 300L);
        ModelCache cache = new ModelCache(loader, 250, threadContext, new CompressCounters());
        getNow(cache, loader, "small");
        assertEquals("big", getNow(cache, loader, "big").id());
        assertEquals(Set.of("small"), cache.cachedModelIds());
    }

    public void testEvictDropsTheModelAndALoadInFlight() {
        ManualLoader loader = new ManualLoader();
        ModelCache cache = new ModelCache(loader, 1000, threadContext, new CompressCounters());
        getNow(cache, loader, "m");
        assertTrue(cache.evict("m"));
        assertEquals(Set.of(), cache.cachedModelIds());
        assertFalse("nothing left to evict", cache.evict("m"));

        PlainActionFuture<LoadedModel> during = PlainActionFuture.newFuture();
        cache.get("m", during);
        assertTrue(cache.evict("m"));
        loader.complete("m");
        assertEquals(
                "the caller that asked before the delete still gets its answer",
                "m",
                during.actionGet().id());
        assertEquals("a load that straddled an eviction is not kept", Set.of(), cache.cachedModelIds());
    }

    public void testFailedLoadIsNotRemembered() {
        ManualLoader loader = new ManualLoader();
        ModelCache cache = new ModelCache(loader, 1000, threadContext, new CompressCounters());
        PlainActionFuture<LoadedModel> failing = PlainActionFuture.newFuture();
        cache.get("m", failing);
        loader.started.get("m").remove(0).onFailure(new IllegalStateException("model [m] is in state [training]"));
        expectThrows(IllegalStateException.class, failing::actionGet);
        assertEquals("m", getNow(cache, loader, "m").id());
        assertEquals(2, cache.loadCount());
        assertEquals(Set.of("m"), cache.cachedModelIds());
    }

    public void testEachWaitingCallerGetsItsOwnThreadContext() {
        ManualLoader loader = new ManualLoader();
        ModelCache cache = new ModelCache(loader, 1000, threadContext, new CompressCounters());
        List<String> seen = new ArrayList<>();
        for (String caller : List.of("first", "second")) {
            try (ThreadContext.StoredContext ignored = threadContext.stashContext()) {
                threadContext.putHeader("caller", caller);
                cache.get(
                        "m",
                        ActionListener.wrap(
                                model -> seen.add(threadContext.getHeader("caller")), e -> fail(e.getMessage())));
            }
        }
        try (ThreadContext.StoredContext ignored = threadContext.stashContext()) {
            threadContext.putHeader("caller", "loader");
            loader.complete("m");
        }
        assertEquals(List.of("first", "second"), seen);
    }

    /** A smaller limit evicts least recently used models at once; hits, misses and evictions are counted. */
    public void testResizeEvictsLeastRecentlyUsedAndCountsIt() {
        ManualLoader loader = new ManualLoader();
        CompressCounters counters = new CompressCounters();
        ModelCache cache = new ModelCache(loader, 1000, threadContext, counters);
        getNow(cache, loader, "a");
        getNow(cache, loader, "b");
        getNow(cache, loader, "a");
        cache.resize(150);
        assertEquals(150, cache.maxBytes());
        assertEquals(Set.of("a"), cache.cachedModelIds());
        cache.resize(1000);
        getNow(cache, loader, "b");
        assertEquals(Set.of("a", "b"), cache.cachedModelIds());
        assertEquals(
                Map.of("model_cache_hits", 1L, "model_cache_misses", 3L, "model_cache_evictions", 1L),
                NodeStats.read(
                        new NodeStats.Sources(counters, cache, null),
                        Set.of("model_cache_hits", "model_cache_misses", "model_cache_evictions")));
        assertEquals("an operator's eviction is not counted as one", Set.of("a", "b"), cache.evictAll());
        assertEquals(
                Map.of("model_cache_evictions", 1L),
                NodeStats.read(new NodeStats.Sources(counters, cache, null), Set.of("model_cache_evictions")));
    }
}
