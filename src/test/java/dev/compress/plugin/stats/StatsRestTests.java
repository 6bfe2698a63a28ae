package dev.compress.plugin.stats;

import dev.compress.plugin.CompressClusterTestCase;
import dev.compress.plugin.inference.LoadedModel;
import dev.compress.plugin.inference.ModelCache;
import dev.compress.plugin.model.ModelIndex;
import dev.compress.plugin.model.ModelState;
import dev.compress.training.model.ModelFileTests;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.opensearch.action.support.PlainActionFuture;
import org.opensearch.cluster.node.DiscoveryNode;
import org.opensearch.cluster.service.ClusterService;
import org.opensearch.test.OpenSearchIntegTestCase;

/**
 * {@code GET _plugins/compress/stats} over real HTTP on two data nodes: k-NN's shape, the node and
 * statistic filters, a 400 naming an unknown statistic, and each counter moved by the events it counts.
 */
@SuppressWarnings("unchecked")
@OpenSearchIntegTestCase.ClusterScope(scope = OpenSearchIntegTestCase.Scope.SUITE, numDataNodes = 2, numClientNodes = 0)
public class StatsRestTests extends CompressClusterTestCase {

    private static final String INDEX = "stats-vectors";
    private static final int DIM = 8;

    private static Map<String, Object> stats(String path) throws IOException {
        return restCall("GET", "/_plugins/compress" + path, null);
    }

    /** A node statistic summed over every node: queries count where their shard is, masks where they are parsed. */
    private static long sum(String stat) throws IOException {
        Map<String, Object> nodes =
                (Map<String, Object>) stats("/stats/" + stat).get("nodes");
        long total = 0;
        for (Object node : nodes.values()) {
            total += ((Number) ((Map<String, Object>) node).get(stat)).longValue();
        }
        return total;
    }

    public void testShapeAndFilters() throws IOException {
        storeModel("shape", ModelFileTests.sampleModel(1, 8, 6, 4), ModelState.CREATED);
        ensureGreen();
        Map<String, Object> all = stats("/stats");
        Map<String, Object> header = (Map<String, Object>) all.get("_nodes");
        int nodes = internalCluster().size();
        assertEquals(nodes, header.get("total"));
        assertEquals(nodes, header.get("successful"));
        assertEquals(0, header.get("failed"));
        assertEquals(internalCluster().getClusterName(), all.get("cluster_name"));
        assertEquals("green", all.get(ClusterStats.MODEL_INDEX_STATUS));
        Map<String, Object> perNode = (Map<String, Object>) all.get("nodes");
        assertEquals(nodes, perNode.size());
        for (Object node : perNode.values()) {
            Map<String, Object> stats = (Map<String, Object>) node;
            for (String name : NodeStats.names()) {
                assertTrue(name + " in " + stats, stats.get(name) instanceof Number);
            }
        }

        DiscoveryNode one = internalCluster().getInstance(ClusterService.class).localNode();
        Map<String, Object> filtered = stats("/" + one.getId() + "/stats/model_cache_hits,model_index_status");
        assertEquals("green", filtered.get(ClusterStats.MODEL_INDEX_STATUS));
        Map<String, Object> onlyOne = (Map<String, Object>) filtered.get("nodes");
        assertEquals(Set.of(one.getId()), onlyOne.keySet());
        assertEquals(Set.of("name", "model_cache_hits"), ((Map<String, Object>) onlyOne.get(one.getId())).keySet());

        Map<String, Object> nodeOnly = stats("/stats/ingest_errors");
        assertFalse("a node statistic alone leaves out the cluster ones", nodeOnly.containsKey("model_index_status"));
        assertEquals(
                "node names select too",
                1,
                ((Map<String, Object>) stats("/" + one.getName() + "/stats").get("nodes")).size());

        String error = restError(400, "GET", "/_plugins/compress/stats/query_requests,nope", null);
        assertTrue(error, error.contains("unknown statistic [nope]"));
        assertTrue(error, error.contains("query_requests"));
        assertTrue(restError(400, "GET", "/_plugins/compress/_all/stats/nope", null)
                .contains("unknown statistic [nope]"));
    }

    public void testModelIndexStatusIsNullWithoutTheIndex() throws IOException {
        if (clusterService().state().metadata().hasIndex(ModelIndex.NAME)) {
            client().admin().indices().prepareDelete(ModelIndex.NAME).get();
        }
        Map<String, Object> stats = stats("/stats/model_index_status");
        assertTrue(stats.containsKey(ClusterStats.MODEL_INDEX_STATUS));
        assertNull(stats.get(ClusterStats.MODEL_INDEX_STATUS));
    }

    /** Two shards: each counts its query phase once, not the fetch and dfs phases that build the query again. */
    public void testQueriesCountByKindAndMaskType() throws IOException {
        restCall(
                "PUT",
                "/" + INDEX,
                "{\"settings\":{\"index.compress\":true,\"number_of_shards\":2,\"number_of_replicas\":0},"
                        + "\"mappings\":{\"properties\":{\"tag\":{\"type\":\"keyword\"},"
                        + "\"f\":{\"type\":\"compressed_vector\",\"dimension\":" + DIM + ",\"encoding\":\"float\"},"
                        + "\"b\":{\"type\":\"compressed_vector\",\"dimension\":" + DIM
                        + ",\"encoding\":\"binary\"}}}}");
        StringBuilder bulk = new StringBuilder();
        float[][] vectors = gaussian(random(), 20, DIM);
        for (int i = 0; i < vectors.length; i++) {
            String v = java.util.Arrays.toString(vectors[i]);
            bulk.append("{\"index\":{\"_index\":\"" + INDEX + "\",\"_id\":\"" + i + "\"}}\n");
            bulk.append("{\"tag\":\"" + (i % 2 == 0 ? "even" : "odd") + "\",\"f\":" + v + ",\"b\":" + v + "}\n");
        }
        restCall("POST", "/_bulk?refresh=true", bulk.toString());
        Map<String, Long> before = counts();
        String q = java.util.Arrays.toString(vectors[3]);
        search("{\"field\":\"f\",\"vector\":" + q + ",\"k\":5}");
        restCall(
                "POST",
                "/" + INDEX + "/_search?search_type=dfs_query_then_fetch",
                "{\"query\":{\"compressed_knn\":{\"field\":\"f\",\"vector\":" + q + ",\"k\":5}}}");
        search("{\"field\":\"b\",\"vector\":" + q + ",\"k\":5}");
        search("{\"field\":\"b\",\"vector\":" + q + ",\"k\":5,\"rescore\":false}");
        search("{\"field\":\"f\",\"vector\":" + q + ",\"k\":5,\"filter\":{\"term\":{\"tag\":\"even\"}}}");
        search("{\"field\":\"f\",\"vector\":" + q + ",\"k\":5,\"mask\":{\"type\":\"norm\",\"dimensions\":4}}");
        search("{\"field\":\"b\",\"vector\":" + q + ",\"k\":5,\"mask\":{\"type\":\"cutoff\",\"ratio\":0.5},"
                + "\"filter\":{\"term\":{\"tag\":\"odd\"}}}");
        Map<String, Long> after = counts();
        assertEquals("7 searches on 2 shards", 14, after.get("query_requests") - before.get("query_requests"));
        assertEquals(
                "float twice, and binary without rescoring", 6, after.get("query_plain") - before.get("query_plain"));
        assertEquals(4, after.get("query_rescored") - before.get("query_rescored"));
        assertEquals(4, after.get("query_filtered") - before.get("query_filtered"));
        assertEquals(4, after.get("query_masked") - before.get("query_masked"));
        assertEquals(1, after.get("query_mask_norm") - before.get("query_mask_norm"));
        assertEquals(1, after.get("query_mask_cutoff") - before.get("query_mask_cutoff"));
        assertEquals(0, after.get("query_mask_explicit") - before.get("query_mask_explicit"));
    }

    private static Map<String, Long> counts() throws IOException {
        Map<String, Long> counts = new java.util.HashMap<>();
        for (String stat : List.of(
                "query_requests",
                "query_plain",
                "query_rescored",
                "query_filtered",
                "query_masked",
                "query_mask_norm",
                "query_mask_cutoff",
                "query_mask_explicit")) {
            counts.put(stat, sum(stat));
        }
        return counts;
    }

    private static void search(String compressedKnn) throws IOException {
        Map<String, Object> hits = (Map<String, Object>)
                restCall("POST", "/" + INDEX + "/_search", "{\"query\":{\"compressed_knn\":" + compressedKnn + "}}")
                        .get("hits");
        assertFalse(((List<?>) hits.get("hits")).isEmpty());
    }

    public void testIngestCountsDocumentsAndErrors() throws IOException {
        restCall(
                "PUT",
                "/_ingest/pipeline/stats-truncate",
                "{\"processors\":[{\"compress\":{\"field\":\"v\",\"target_field\":\"t\",\"truncate_to\":2}}]}");
        long documents = sum("ingest_documents");
        long errors = sum("ingest_errors");
        for (int i = 0; i < 3; i++) {
            restCall("PUT", "/stats-ingest/_doc/" + i + "?pipeline=stats-truncate", "{\"v\":[1.0,2.0,3.0]}");
        }
        restError(400, "PUT", "/stats-ingest/_doc/bad?pipeline=stats-truncate", "{\"v\":\"not a vector\"}");
        assertEquals(3, sum("ingest_documents") - documents);
        assertEquals(1, sum("ingest_errors") - errors);
    }

    public void testModelCacheCountsHitsAndMisses() throws IOException {
        storeModel("counted", ModelFileTests.sampleModel(2, 8, 6, 4), ModelState.CREATED);
        String node = internalCluster().getDataNodeNames().iterator().next();
        String nodeId = internalCluster()
                .getInstance(ClusterService.class, node)
                .localNode()
                .getId();
        ModelCache cache = internalCluster().getInstance(ModelCache.class, node);
        Map<String, Object> before = nodeStats(nodeId);
        for (int i = 0; i < 3; i++) {
            PlainActionFuture<LoadedModel> loaded = PlainActionFuture.newFuture();
            cache.get("counted", loaded);
            loaded.actionGet();
        }
        Map<String, Object> after = nodeStats(nodeId);
        assertEquals(1L, delta(before, after, "model_cache_misses"));
        assertEquals(2L, delta(before, after, "model_cache_hits"));
        assertTrue(((Number) after.get("model_cache_entries")).intValue() >= 1);
        assertTrue(((Number) after.get("model_cache_bytes")).longValue() > 0);
        assertEquals(cache.maxBytes(), ((Number) after.get("model_cache_max_bytes")).longValue());
    }

    private static Map<String, Object> nodeStats(String nodeId) throws IOException {
        return (Map<String, Object>)
                ((Map<String, Object>) stats("/" + nodeId + "/stats").get("nodes")).get(nodeId);
    }

    private static long delta(Map<String, Object> before, Map<String, Object> after, String stat) {
        return ((Number) after.get(stat)).longValue() - ((Number) before.get(stat)).longValue();
    }
}
