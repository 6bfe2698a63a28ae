package dev.compress.plugin.info;

import dev.compress.plugin.CompressPlugin;

import org.opensearch.client.Request;
import org.opensearch.client.Response;
import org.opensearch.common.xcontent.XContentHelper;
import org.opensearch.common.xcontent.json.JsonXContent;
import org.opensearch.core.common.bytes.BytesArray;
import org.opensearch.plugins.Plugin;
import org.opensearch.test.OpenSearchIntegTestCase;
import org.opensearch.transport.Netty4ModulePlugin;

import java.io.IOException;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/** {@code GET _plugins/compress} over real HTTP on a cluster of two data nodes. */
@OpenSearchIntegTestCase.ClusterScope(scope = OpenSearchIntegTestCase.Scope.SUITE, numDataNodes = 2, numClientNodes = 0)
public class InfoRestMultiNodeTests extends OpenSearchIntegTestCase {

    @Override
    protected boolean addMockHttpTransport() {
        return false;
    }

    @Override
    protected Collection<Class<? extends Plugin>> nodePlugins() {
        return List.of(CompressPlugin.class, Netty4ModulePlugin.class);
    }

    @SuppressWarnings("unchecked")
    public void testEveryNodeAnswersWithLoadedEngine() throws IOException {
        assertEquals(2, internalCluster().numDataNodes());
        Response response = getRestClient().performRequest(new Request("GET", "/_plugins/compress"));
        assertEquals(200, response.getStatusLine().getStatusCode());
        Map<String, Object> body = XContentHelper.convertToMap(
            JsonXContent.jsonXContent,
            new BytesArray(response.getEntity().getContent().readAllBytes()).streamInput(),
            false
        );
        assertEquals(org.apache.lucene.util.Version.LATEST.toString(), body.get("lucene_version"));
        Map<String, Object> engine = (Map<String, Object>) body.get("training_engine");
        assertEquals("engine should load: " + engine, Boolean.TRUE, engine.get("loaded"));
        assertEquals("PyTorch", engine.get("name"));
        assertEquals(0, engine.get("gpu_count"));
    }
}
