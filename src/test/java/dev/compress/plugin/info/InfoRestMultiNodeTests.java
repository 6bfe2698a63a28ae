package dev.compress.plugin.info;

import dev.compress.plugin.CompressClusterTestCase;
import java.io.IOException;
import java.util.Map;
import org.opensearch.client.Request;
import org.opensearch.client.Response;
import org.opensearch.test.OpenSearchIntegTestCase;

/** {@code GET _plugins/compress} over real HTTP on a cluster of two data nodes. */
@OpenSearchIntegTestCase.ClusterScope(scope = OpenSearchIntegTestCase.Scope.SUITE, numDataNodes = 2, numClientNodes = 0)
public class InfoRestMultiNodeTests extends CompressClusterTestCase {

    @SuppressWarnings("unchecked")
    public void testEveryNodeAnswersWithLoadedEngine() throws IOException {
        assertEquals(2, internalCluster().numDataNodes());
        Response response = getRestClient().performRequest(new Request("GET", "/_plugins/compress"));
        assertEquals(200, response.getStatusLine().getStatusCode());
        Map<String, Object> body = jsonBody(response);
        assertEquals(org.apache.lucene.util.Version.LATEST.toString(), body.get("lucene_version"));
        Map<String, Object> engine = (Map<String, Object>) body.get("training_engine");
        assertEquals("engine should load: " + engine, Boolean.TRUE, engine.get("loaded"));
        assertEquals("PyTorch", engine.get("name"));
        assertEquals(0, engine.get("gpu_count"));
    }
}
