package dev.compress.plugin.train;

import dev.compress.plugin.CompressPlugin;
import dev.compress.training.model.ModelArtifact;
import dev.compress.training.model.ModelFile;

import org.opensearch.client.Request;
import org.opensearch.client.Response;
import org.opensearch.client.ResponseException;
import org.opensearch.common.xcontent.XContentHelper;
import org.opensearch.common.xcontent.json.JsonXContent;
import org.opensearch.core.common.bytes.BytesArray;
import org.opensearch.plugins.Plugin;
import org.opensearch.test.OpenSearchIntegTestCase;
import org.opensearch.transport.Netty4ModulePlugin;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The training API over real HTTP on two data nodes, with scifact held in ordinary indices:
 * validation errors, a DIVE job that ends {@code created} with an evaluation on the 300 unseen test
 * queries, cancellation, and the rules of DELETE.
 */
@SuppressWarnings("unchecked")
@OpenSearchIntegTestCase.ClusterScope(scope = OpenSearchIntegTestCase.Scope.SUITE, numDataNodes = 2, numClientNodes = 0)
public class TrainModelApiTests extends OpenSearchIntegTestCase {

    @Override
    protected boolean addMockHttpTransport() {
        return false;
    }

    @Override
    protected Collection<Class<? extends Plugin>> nodePlugins() {
        return List.of(CompressPlugin.class, Netty4ModulePlugin.class);
    }

    /** The framework wipes every index after each test, so each test loads its data. */
    @Override
    public void setUp() throws Exception {
        super.setUp();
        ScifactIndices.load(client());
    }

    static String trainBody(String method, Object dims, String parameters) {
        return "{\"method\":\"" + method + "\",\"corpus\":{\"index\":\"" + ScifactIndices.CORPUS + "\",\"vector_field\":\"vector\"},"
            + "\"queries\":{\"index\":\"" + ScifactIndices.QUERIES + "\"},\"judgments\":{\"index\":\"" + ScifactIndices.JUDGMENTS + "\"},"
            + "\"dimensions\":" + dims + ",\"parameters\":" + parameters + ",\"split\":{\"field\":\"split\"}}";
    }

    private Map<String, Object> call(String method, String path, String body) throws IOException {
        Request request = new Request(method, path);
        if (body != null) {
            request.setJsonEntity(body);
        }
        Response response = getRestClient().performRequest(request);
        return XContentHelper.convertToMap(JsonXContent.jsonXContent, new BytesArray(response.getEntity().getContent().readAllBytes()).streamInput(), false);
    }

    private String error(int status, String method, String path, String body) throws IOException {
        Request request = new Request(method, path);
        if (body != null) {
            request.setJsonEntity(body);
        }
        ResponseException e = expectThrows(ResponseException.class, () -> getRestClient().performRequest(request));
        String text = new String(e.getResponse().getEntity().getContent().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(text, status, e.getResponse().getStatusLine().getStatusCode());
        return text;
    }

    private Map<String, Object> awaitState(String modelId, String state) throws Exception {
        Map<String, Object>[] last = new Map[1];
        assertBusy(() -> {
            last[0] = call("GET", "/_plugins/compress/models/" + modelId, null);
            assertEquals(String.valueOf(last[0]), state, last[0].get("state"));
        }, 5, TimeUnit.MINUTES);
        return last[0];
    }

    public void testEveryBadRequestIsA400NamingFieldAndValue() throws IOException {
        String ok = trainBody("dive", 64, "{\"epochs\":2}");
        assertTrue(error(400, "POST", "/_plugins/compress/_train", ok.replace("\"dive\"", "\"magic\"")).contains("[method] must be one of"));
        assertTrue(error(400, "POST", "/_plugins/compress/_train", ok.replace(ScifactIndices.CORPUS, "nope")).contains("[corpus.index] index [nope] does not exist"));
        assertTrue(error(400, "POST", "/_plugins/compress/_train", ok.replace("\"vector_field\":\"vector\"", "\"vector_field\":\"v2\"")).contains("[corpus.vector_field] field [v2] is not mapped"));
        String notVector = trainBody("dive", 64, "{}").replace("\"index\":\"" + ScifactIndices.QUERIES + "\"}", "\"index\":\"" + ScifactIndices.QUERIES + "\",\"vector_field\":\"query_id\"}");
        assertTrue(error(400, "POST", "/_plugins/compress/_train", notVector).contains("is of type [keyword], not a vector field"));
        assertTrue(error(400, "POST", "/_plugins/compress/_train", trainBody("dive", 384, "{}")).contains("[dimensions] [384] must be below the input dimension 384"));
        assertTrue(error(400, "POST", "/_plugins/compress/_train", trainBody("dive", "[32,64]", "{}")).contains("trains one output dimension per model"));
        assertTrue(error(400, "POST", "/_plugins/compress/_train", trainBody("dive", 64, "{\"margin\":5}")).contains("[parameters.margin] must be in [0.0, 2.0], got [5]"));
        assertTrue(error(400, "POST", "/_plugins/compress/_train", trainBody("dive", 64, "{\"epoch\":5}")).contains("[parameters.epoch] is not a parameter of method [dive]"));
        assertTrue(error(400, "POST", "/_plugins/compress/_train", ok.replace("\"split\":{\"field\":\"split\"}", "\"split\":{\"test_fraction\":1.5}")).contains("[split.test_fraction] must be in (0, 1), got [1.5]"));
        assertTrue(error(400, "POST", "/_plugins/compress/_train", ok.replace("{\"method\"", "{\"colour\":1,\"method\"")).contains("[colour] is not a parameter of _train"));
        client().admin().indices().prepareCreate("no-ratings").setMapping("{\"properties\":{\"query_id\":{\"type\":\"keyword\"},\"doc_id\":{\"type\":\"keyword\"},\"rating\":{\"type\":\"integer\"},\"split\":{\"type\":\"keyword\"}}}").get();
        assertTrue(error(400, "POST", "/_plugins/compress/_train", ok.replace(ScifactIndices.JUDGMENTS, "no-ratings")).contains("has no usable judgments"));
        assertTrue(error(404, "GET", "/_plugins/compress/models/missing", null).contains("model [missing] does not exist"));
    }

    @SuppressWarnings("unchecked")
    public void testDiveTrainsToCreatedWithHeldOutEvaluationAndDeletes() throws Exception {
        Map<String, Object> started = call("POST", "/_plugins/compress/models/dive-64/_train", trainBody("dive", 64, "{\"epochs\":3}"));
        assertEquals("dive-64", started.get("model_id"));
        assertEquals("training", started.get("state"));
        Map<String, Object> model = awaitState("dive-64", "created");
        assertEquals(List.of(64), model.get("dimensions"));
        assertEquals(384, model.get("input_dimension"));
        Map<String, Object> evaluation = (Map<String, Object>) model.get("evaluation");
        assertEquals(300, evaluation.get("held_out_queries"));
        List<Map<String, Object>> rows = (List<Map<String, Object>>) evaluation.get("rows");
        // the frozen 384-d baseline on the 300 unseen test queries reproduces the reference figure
        assertEquals(0.7127, ((Number) rows.get(0).get("ndcg@10")).doubleValue(), 0.001);
        assertTrue(rows.stream().anyMatch(r -> "dive".equals(r.get("method")) && Integer.valueOf(64).equals(r.get("dims"))));
        Map<String, Object> progress = (Map<String, Object>) model.get("progress");
        assertEquals(300, progress.get("test_queries"));
        assertEquals(809, ((Number) progress.get("train_queries")).intValue() + ((Number) progress.get("validation_queries")).intValue());
        assertFalse(((List<?>) progress.get("history")).isEmpty());

        Map<String, Object> withWeights = call("GET", "/_plugins/compress/models/dive-64?include_weights=true", null);
        ModelArtifact artifact = ModelFile.fromBytes(Base64.getDecoder().decode((String) withWeights.get("model_file")));
        assertEquals(List.of(64), artifact.metadata().outputDims());
        assertEquals(384, artifact.metadata().inputDim());

        Map<String, Object> found = call("POST", "/_plugins/compress/models/_search", "{\"query\":{\"term\":{\"method\":\"dive\"}}}");
        assertTrue(found.toString().contains("dive-64"));
        assertFalse("chunks never show up in model search", found.toString().contains("\"data\""));

        assertTrue(error(409, "POST", "/_plugins/compress/models/dive-64/_train", trainBody("dive", 64, "{\"epochs\":1}")).contains("already exists"));
        assertEquals("deleted", call("DELETE", "/_plugins/compress/models/dive-64", null).get("result"));
        error(404, "GET", "/_plugins/compress/models/dive-64", null);
    }

    public void testCancelStopsTrainingAndDeleteWaitsForIt() throws Exception {
        call("POST", "/_plugins/compress/models/long/_train", trainBody("dive", 32, "{\"epochs\":500,\"patience\":0}"));
        assertBusy(() -> assertNotNull("training has started", call("GET", "/_plugins/compress/models/long", null).get("progress")), 3, TimeUnit.MINUTES);
        assertTrue(error(409, "DELETE", "/_plugins/compress/models/long", null).contains("is training"));
        assertEquals(true, call("POST", "/_plugins/compress/models/long/_cancel", null).get("cancel_requested"));
        Map<String, Object> failed = awaitState("long", "failed");
        assertEquals("cancelled", failed.get("error"));
        assertTrue(error(409, "POST", "/_plugins/compress/models/long/_cancel", null).contains("is [failed], not [training]"));
        assertEquals("deleted", call("DELETE", "/_plugins/compress/models/long", null).get("result"));
    }
}
