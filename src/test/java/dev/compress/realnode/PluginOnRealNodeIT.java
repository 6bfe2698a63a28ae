package dev.compress.realnode;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import dev.compress.harness.RealNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.junit.BeforeClass;
import org.junit.Test;
import org.opensearch.client.Request;
import org.opensearch.client.Response;

/**
 * The plugin zip installs into a real OpenSearch 3.6 node, loads DJL offline, survives a restart, and
 * its operator endpoints work where the security agent checks the plugin's file access.
 */
public class PluginOnRealNodeIT {

    private static RealNode node;

    @BeforeClass
    public static void startNode() throws Exception {
        node = RealNode.shared();
    }

    static String get(String path) throws IOException {
        Response response = node.client().performRequest(new Request("GET", path));
        assertEquals(200, response.getStatusLine().getStatusCode());
        return new String(response.getEntity().getContent().readAllBytes(), StandardCharsets.UTF_8);
    }

    @Test
    public void infoShowsTrainingEngineLoadedOfflineOnCpu() throws Exception {
        String body = get("/_plugins/compress");
        assertTrue(body, body.contains("\"loaded\":true"));
        assertTrue(body, body.contains("\"name\":\"PyTorch\""));
        assertTrue(body, body.contains("\"devices\":[\"cpu()\"]"));
        assertTrue(body, body.contains("\"lucene_version\":\"10.4.0\""));
        assertFalse(
                "DJL must not try to download anything:\n" + node.log(),
                node.log().toLowerCase().contains("download"));
    }

    static String send(String method, String path, String body) throws IOException {
        Request request = new Request(method, path);
        if (body != null) {
            request.setJsonEntity(body);
        }
        Response response = node.client().performRequest(request);
        assertEquals(200, response.getStatusLine().getStatusCode());
        return new String(response.getEntity().getContent().readAllBytes(), StandardCharsets.UTF_8);
    }

    /**
     * Warmup reads shard files and searches them from the plugin's code: the agent must let it, as it lets
     * any plugin read data paths.
     */
    @Test
    public void warmupStatsAndCacheClearingWorkUnderTheSecurityAgent() throws Exception {
        send(
                "PUT",
                "/operator-tools",
                "{\"settings\":{\"index.compress\":true,\"number_of_shards\":1,\"number_of_replicas\":0},"
                        + "\"mappings\":{\"properties\":{\"v\":{\"type\":\"compressed_vector\",\"dimension\":4,"
                        + "\"encoding\":\"binary\"}}}}");
        StringBuilder bulk = new StringBuilder();
        for (int i = 0; i < 20; i++) {
            bulk.append("{\"index\":{}}\n{\"v\":[1," + i + ",-1," + (i % 3) + "]}\n");
        }
        send("POST", "/operator-tools/_bulk?refresh=true", bulk.toString());
        String warmed = get("/_plugins/compress/warmup/operator-tools");
        assertTrue(warmed, warmed.contains("\"_shards\":{\"total\":1,\"successful\":1,\"failed\":0}"));
        assertFalse(warmed, warmed.contains("\"bytes\":0"));
        assertTrue("its searches run under the agent too: " + warmed, warmed.contains("\"searches\":1000"));
        String stats = get("/_plugins/compress/stats");
        assertTrue(stats, stats.contains("\"model_cache_max_bytes\""));
        assertTrue(stats, stats.contains("\"query_requests\""));
        String cleared = send("POST", "/_plugins/compress/models/_clear_cache", null);
        assertTrue(cleared, cleared.contains("\"evicted\":[]"));
        send("DELETE", "/operator-tools", null);
    }

    @Test
    public void pluginIsStillThereAfterRestart() throws Exception {
        assertTrue(get("/_cat/plugins").contains("embedding-compress"));
        node.restart();
        assertTrue(get("/_cat/plugins").contains("embedding-compress"));
        assertTrue(get("/_plugins/compress").contains("\"loaded\":true"));
    }
}
