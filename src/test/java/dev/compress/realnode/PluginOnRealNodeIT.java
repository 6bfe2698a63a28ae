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

/** The plugin zip installs into a real OpenSearch 3.6 node, loads DJL offline, and survives a restart. */
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

    @Test
    public void pluginIsStillThereAfterRestart() throws Exception {
        assertTrue(get("/_cat/plugins").contains("embedding-compress"));
        node.restart();
        assertTrue(get("/_cat/plugins").contains("embedding-compress"));
        assertTrue(get("/_plugins/compress").contains("\"loaded\":true"));
    }
}
