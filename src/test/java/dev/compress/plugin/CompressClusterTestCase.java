package dev.compress.plugin;

import dev.compress.plugin.inference.StoredModels;
import dev.compress.plugin.model.ModelIndex;
import dev.compress.plugin.model.ModelState;
import dev.compress.training.model.ModelArtifact;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.opensearch.client.Request;
import org.opensearch.client.Response;
import org.opensearch.client.ResponseException;
import org.opensearch.common.xcontent.XContentHelper;
import org.opensearch.common.xcontent.json.JsonXContent;
import org.opensearch.core.common.bytes.BytesArray;
import org.opensearch.plugins.Plugin;
import org.opensearch.test.OpenSearchIntegTestCase;
import org.opensearch.transport.Netty4ModulePlugin;

/**
 * Base of the plugin's cluster tests: nodes run the plugin behind real HTTP, so tests can go through the
 * REST layer as users do. Subclasses keep their own {@code @ClusterScope} and node settings.
 */
public abstract class CompressClusterTestCase extends OpenSearchIntegTestCase {

    /** The mock HTTP transport binds no port, so {@link #getRestClient()} needs Netty4 instead. */
    @Override
    protected boolean addMockHttpTransport() {
        return false;
    }

    @Override
    protected Collection<Class<? extends Plugin>> nodePlugins() {
        return List.of(CompressPlugin.class, Netty4ModulePlugin.class);
    }

    /** Sends a request that must succeed and returns its JSON body; {@code body} may be null. */
    protected static Map<String, Object> restCall(String method, String path, String body) throws IOException {
        return jsonBody(getRestClient().performRequest(request(method, path, body)));
    }

    protected static Map<String, Object> jsonBody(Response response) throws IOException {
        return XContentHelper.convertToMap(
                JsonXContent.jsonXContent,
                new BytesArray(response.getEntity().getContent().readAllBytes()).streamInput(),
                false);
    }

    /** Sends a request that must fail with {@code status} and returns the error body; {@code body} may be null. */
    protected static String restError(int status, String method, String path, String body) throws IOException {
        Request request = request(method, path, body);
        ResponseException e =
                expectThrows(ResponseException.class, () -> getRestClient().performRequest(request));
        String text = new String(e.getResponse().getEntity().getContent().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(text, status, e.getResponse().getStatusLine().getStatusCode());
        return text;
    }

    /** Polls the model API until the model is in {@code state} (a training job can take minutes) and returns the model. */
    @SuppressWarnings("unchecked")
    protected static Map<String, Object> awaitState(String modelId, String state) throws Exception {
        Map<String, Object>[] last = new Map[1];
        assertBusy(
                () -> {
                    last[0] = restCall("GET", "/_plugins/compress/models/" + modelId, null);
                    assertEquals(String.valueOf(last[0]), state, last[0].get("state"));
                },
                5,
                TimeUnit.MINUTES);
        return last[0];
    }

    private static Request request(String method, String path, String body) {
        Request request = new Request(method, path);
        if (body != null) {
            request.setJsonEntity(body);
        }
        return request;
    }

    /** Puts a model into the model index as training leaves it in {@code state}. */
    protected static void storeModel(String id, ModelArtifact artifact, ModelState state) {
        StoredModels.store(internalCluster().getInstance(ModelIndex.class), id, artifact, state);
    }

    /** {@code v} at unit length. */
    protected static float[] unit(float[] v) {
        double norm = 0;
        for (float x : v) {
            norm += x * x;
        }
        float[] out = new float[v.length];
        for (int i = 0; i < v.length; i++) {
            out[i] = (float) (v[i] / Math.sqrt(norm));
        }
        return out;
    }

    /** {@code n} vectors of {@code dims} independent standard normal components. */
    protected static float[][] gaussian(Random random, int n, int dims) {
        float[][] vectors = new float[n][dims];
        for (float[] v : vectors) {
            for (int j = 0; j < dims; j++) {
                v[j] = (float) random.nextGaussian();
            }
        }
        return vectors;
    }
}
