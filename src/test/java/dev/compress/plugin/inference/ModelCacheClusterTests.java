package dev.compress.plugin.inference;

import dev.compress.plugin.CompressClusterTestCase;
import dev.compress.plugin.model.ModelState;
import dev.compress.training.inference.CpuEncoders;
import dev.compress.training.model.ModelArtifact;
import dev.compress.training.model.ModelFile;
import dev.compress.training.model.ModelFileTests;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.opensearch.OpenSearchStatusException;
import org.opensearch.ResourceNotFoundException;
import org.opensearch.action.support.PlainActionFuture;
import org.opensearch.common.settings.Settings;
import org.opensearch.core.rest.RestStatus;
import org.opensearch.plugins.Plugin;
import org.opensearch.test.OpenSearchIntegTestCase;
import org.opensearch.test.transport.MockTransportService;
import org.opensearch.transport.TransportService;

/**
 * Each node's model cache: real loads from the model index, the evict broadcast and the endpoints that
 * clear the cache through it, the size setting and its dynamic update.
 */
@SuppressWarnings("unchecked")
@OpenSearchIntegTestCase.ClusterScope(scope = OpenSearchIntegTestCase.Scope.SUITE, numDataNodes = 2, numClientNodes = 0)
public class ModelCacheClusterTests extends CompressClusterTestCase {

    private static final String MAX_SIZE = "30kb";

    @Override
    protected Settings nodeSettings(int nodeOrdinal) {
        return Settings.builder()
                .put(super.nodeSettings(nodeOrdinal))
                .put(ModelCache.MAX_SIZE.getKey(), MAX_SIZE)
                .build();
    }

    /** The framework adds the mock transport only at random; the eviction test needs it to refuse a node's evict. */
    @Override
    protected Collection<Class<? extends Plugin>> nodePlugins() {
        List<Class<? extends Plugin>> plugins = new ArrayList<>(super.nodePlugins());
        plugins.add(MockTransportService.TestPlugin.class);
        return plugins;
    }

    private static ModelArtifact model(long seed) {
        return ModelFileTests.sampleModel(seed, 32, 64, 16);
    }

    private static LoadedModel load(ModelCache cache, String id) {
        PlainActionFuture<LoadedModel> future = PlainActionFuture.newFuture();
        cache.get(id, future);
        return future.actionGet();
    }

    private List<ModelCache> caches() {
        return List.of(internalCluster().getDataNodeNames().stream()
                .map(n -> internalCluster().getInstance(ModelCache.class, n))
                .toArray(ModelCache[]::new));
    }

    public void testLoadsOnEachNodeAndTheBroadcastEvictsEverywhere() {
        ModelArtifact artifact = model(1);
        storeModel("shared", artifact, ModelState.CREATED);
        float[] input = new float[32];
        for (int i = 0; i < input.length; i++) {
            input[i] = (float) Math.sin(i);
        }
        float[] expected = CpuEncoders.forServing(artifact, 16).encode(input);
        for (ModelCache cache : caches()) {
            LoadedModel loaded = load(cache, "shared");
            // the same weights: the Vector API's lane reductions may add in another order once the JIT has
            // compiled them, which moves a sum in its last bit
            assertArrayEquals(expected, loaded.encode(new float[][] {input}, 16)[0], 1e-6f);
            assertTrue(cache.cachedModelIds().contains("shared"));
        }
        EvictModelResponse response = client().execute(EvictModelAction.INSTANCE, new EvictModelRequest("shared"))
                .actionGet();
        assertFalse(response.hasFailures());
        assertEquals(
                "every node answers",
                internalCluster().size(),
                response.getNodes().size());
        for (EvictModelNodeResponse node : response.getNodes()) {
            // the framework may add dedicated cluster-manager nodes, which never loaded the model
            boolean loadedThere =
                    internalCluster().getDataNodeNames().contains(node.getNode().getName());
            assertEquals(node.getNode().getName(), loadedThere, node.evicted());
        }
        for (ModelCache cache : caches()) {
            assertFalse(cache.cachedModelIds().contains("shared"));
        }
        EvictModelResponse again = client().execute(EvictModelAction.INSTANCE, new EvictModelRequest("shared"))
                .actionGet();
        assertTrue(again.getNodes().stream().noneMatch(EvictModelNodeResponse::evicted));
    }

    public void testSizeSettingBoundsTheCache() {
        int size = ModelFile.toBytes(model(2)).length;
        ModelCache cache = caches().get(0);
        assertEquals(30 * 1024, cache.maxBytes());
        assertTrue(
                "test assumes two models fit and three do not: " + size,
                2L * size <= cache.maxBytes() && 3L * size > cache.maxBytes());
        for (int i = 0; i < 3; i++) {
            storeModel("sized-" + i, model(10 + i), ModelState.CREATED);
            load(cache, "sized-" + i);
        }
        assertEquals(Set.of("sized-1", "sized-2"), cache.cachedModelIds());
        assertTrue(cache.cachedBytes() <= cache.maxBytes());
        assertEquals(2L * size, cache.cachedBytes());
    }

    public void testClearCacheEndpointsDropOneModelOrEvery() throws IOException {
        storeModel("clear-1", model(20), ModelState.CREATED);
        storeModel("clear-2", model(21), ModelState.CREATED);
        for (ModelCache cache : caches()) {
            load(cache, "clear-1");
            load(cache, "clear-2");
        }
        Map<String, Object> one = restCall("POST", "/_plugins/compress/models/clear-1/_clear_cache", null);
        assertEquals(internalCluster().size(), ((Map<String, Object>) one.get("_nodes")).get("successful"));
        assertEquals(internalCluster().getClusterName(), one.get("cluster_name"));
        for (String dataNode : internalCluster().getDataNodeNames()) {
            assertEquals(List.of("clear-1"), evictedOn(one, dataNode));
        }
        for (ModelCache cache : caches()) {
            assertEquals(Set.of("clear-2"), cache.cachedModelIds());
        }
        // a body would read as scoping the cache-wide clear to one model: refused, and nothing is dropped
        String scoped = restError(400, "POST", "/_plugins/compress/models/_clear_cache", "{\"model_id\":\"clear-2\"}");
        assertTrue(scoped, scoped.contains("[POST /_plugins/compress/models/_clear_cache] takes no request body"));
        for (ModelCache cache : caches()) {
            assertEquals(Set.of("clear-2"), cache.cachedModelIds());
        }
        Map<String, Object> every = restCall("POST", "/_plugins/compress/models/_clear_cache", null);
        for (String dataNode : internalCluster().getDataNodeNames()) {
            assertEquals(List.of("clear-2"), evictedOn(every, dataNode));
        }
        for (ModelCache cache : caches()) {
            assertEquals(Set.of(), cache.cachedModelIds());
        }
        Map<String, Object> nothing = restCall("POST", "/_plugins/compress/models/never-cached/_clear_cache", null);
        for (String dataNode : internalCluster().getDataNodeNames()) {
            assertEquals("an id no node holds drops nothing", List.of(), evictedOn(nothing, dataNode));
        }
    }

    private static List<String> evictedOn(Map<String, Object> response, String nodeName) {
        String nodeId = internalCluster()
                .getInstance(TransportService.class, nodeName)
                .getLocalNode()
                .getId();
        Map<String, Object> node = (Map<String, Object>) ((Map<String, Object>) response.get("nodes")).get(nodeId);
        assertEquals(nodeName, node.get("name"));
        return (List<String>) node.get("evicted");
    }

    /** A smaller limit evicts the least recently used models at once, and counts them as evictions. */
    public void testMaxSizeIsDynamic() throws IOException {
        int size = ModelFile.toBytes(model(30)).length;
        String nodeName = internalCluster().getDataNodeNames().iterator().next();
        String nodeId = internalCluster()
                .getInstance(TransportService.class, nodeName)
                .getLocalNode()
                .getId();
        ModelCache cache = internalCluster().getInstance(ModelCache.class, nodeName);
        cache.evictAll();
        for (int i = 0; i < 2; i++) {
            storeModel("resized-" + i, model(30 + i), ModelState.CREATED);
            load(cache, "resized-" + i);
        }
        load(cache, "resized-0"); // now the most recently used
        long evictions = evictions(nodeId);
        long oneAndAHalf = size + size / 2;
        try {
            restCall(
                    "PUT",
                    "/_cluster/settings",
                    "{\"transient\":{\"" + ModelCache.MAX_SIZE.getKey() + "\":\"" + oneAndAHalf + "b\"}}");
            assertEquals(oneAndAHalf, cache.maxBytes());
            assertEquals(Set.of("resized-0"), cache.cachedModelIds());
            assertEquals(1, evictions(nodeId) - evictions);
        } finally {
            restCall("PUT", "/_cluster/settings", "{\"transient\":{\"" + ModelCache.MAX_SIZE.getKey() + "\":null}}");
        }
        assertEquals("back to the node's own setting", 30 * 1024, cache.maxBytes());
        for (String setting : List.of(ModelCache.MAX_SIZE.getKey(), "compress.training.max_corpus_size")) {
            String refused =
                    restError(400, "PUT", "/_cluster/settings", "{\"persistent\":{\"" + setting + "\":\"-1\"}}");
            assertTrue(refused, refused.contains("[" + setting + "] must be 0 or more bytes, got [-1]"));
        }
        assertEquals("a refused value changes nothing", 30 * 1024, cache.maxBytes());
        load(cache, "resized-1");
        assertEquals(Set.of("resized-0", "resized-1"), cache.cachedModelIds());
    }

    private static long evictions(String nodeId) throws IOException {
        Map<String, Object> nodes = (Map<String, Object>)
                restCall("GET", "/_plugins/compress/" + nodeId + "/stats/model_cache_evictions", null)
                        .get("nodes");
        return ((Number) ((Map<String, Object>) nodes.get(nodeId)).get("model_cache_evictions")).longValue();
    }

    public void testUnusableModelsFailWithTheirIdAndState() {
        ModelCache cache = caches().get(1);
        ResourceNotFoundException missing = expectThrows(ResourceNotFoundException.class, () -> load(cache, "absent"));
        assertTrue(missing.getMessage(), missing.getMessage().contains("model [absent] does not exist"));

        storeModel("in-training", model(3), ModelState.TRAINING);
        OpenSearchStatusException training =
                expectThrows(OpenSearchStatusException.class, () -> load(cache, "in-training"));
        assertEquals(RestStatus.BAD_REQUEST, training.status());
        assertTrue(training.getMessage(), training.getMessage().contains("model [in-training] is in state [training]"));

        storeModel("broken", model(4), ModelState.FAILED);
        OpenSearchStatusException failed = expectThrows(OpenSearchStatusException.class, () -> load(cache, "broken"));
        assertTrue(failed.getMessage(), failed.getMessage().contains("model [broken] is in state [failed]"));
        assertFalse(cache.cachedModelIds().contains("in-training"));
    }

    /** A node that cannot confirm the eviction keeps its copy, so DELETE names it instead of answering as if all were well. */
    public void testDeleteNamesNodesThatDidNotEvict() throws Exception {
        storeModel("stale", model(7), ModelState.CREATED);
        String[] nodes = internalCluster().getDataNodeNames().toArray(String[]::new);
        for (String node : nodes) {
            load(internalCluster().getInstance(ModelCache.class, node), "stale");
        }
        String unreachable = nodes[1];
        MockTransportService transport =
                (MockTransportService) internalCluster().getInstance(TransportService.class, unreachable);
        transport.addRequestHandlingBehavior(EvictModelAction.NAME + "[n]", (handler, request, channel, task) -> {
            throw new IllegalStateException("evict handler down for the test");
        });
        try {
            Map<String, Object> deleted = restCall("DELETE", "/_plugins/compress/models/stale", null);
            assertEquals("deleted", deleted.get("result"));
            List<Map<String, Object>> failures = (List<Map<String, Object>>) deleted.get("eviction_failures");
            assertNotNull(String.valueOf(deleted), failures);
            assertEquals(1, failures.size());
            assertEquals(
                    internalCluster()
                            .getInstance(TransportService.class, unreachable)
                            .getLocalNode()
                            .getId(),
                    failures.get(0).get("node_id"));
            assertTrue(
                    String.valueOf(failures),
                    String.valueOf(failures.get(0).get("reason")).contains("evict handler down for the test"));
            assertTrue(internalCluster()
                    .getInstance(ModelCache.class, unreachable)
                    .cachedModelIds()
                    .contains("stale"));
            assertFalse(internalCluster()
                    .getInstance(ModelCache.class, nodes[0])
                    .cachedModelIds()
                    .contains("stale"));
        } finally {
            transport.clearAllRules();
            client().execute(EvictModelAction.INSTANCE, new EvictModelRequest("stale"))
                    .actionGet();
        }
    }
}
