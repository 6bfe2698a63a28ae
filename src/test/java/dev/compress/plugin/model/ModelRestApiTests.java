package dev.compress.plugin.model;

import dev.compress.plugin.CompressClusterTestCase;
import dev.compress.training.model.ModelArtifact;
import dev.compress.training.model.ModelFile;
import dev.compress.training.model.ModelFileTests;
import java.io.IOException;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.opensearch.action.support.PlainActionFuture;
import org.opensearch.client.Request;
import org.opensearch.client.Response;
import org.opensearch.cluster.service.ClusterService;
import org.opensearch.common.settings.Settings;
import org.opensearch.test.OpenSearchIntegTestCase;

/**
 * The model API over real HTTP without a training job: each route reaches its own handler, takes
 * only its methods and parameters, and answers with the body and status it always has.
 */
@OpenSearchIntegTestCase.ClusterScope(scope = OpenSearchIntegTestCase.Scope.SUITE, numDataNodes = 1, numClientNodes = 0)
public class ModelRestApiTests extends CompressClusterTestCase {

    private static final String MODELS = "/_plugins/compress/models/";

    /** The sweeps stay out: the models here have no job behind them. */
    @Override
    protected Settings nodeSettings(int nodeOrdinal) {
        return Settings.builder()
                .put(super.nodeSettings(nodeOrdinal))
                .put("compress.training.sweep_interval", "1h")
                .build();
    }

    private static Response perform(String method, String path, String body) throws IOException {
        Request request = new Request(method, path);
        if (body != null) {
            request.setJsonEntity(body);
        }
        return getRestClient().performRequest(request);
    }

    @SuppressWarnings("unchecked")
    public void testGetSearchAndDeleteAnswerWithTheStoredModel() throws IOException {
        ModelArtifact artifact = ModelFileTests.sampleModel(7, 32, 64, 16);
        storeModel("stored", artifact, ModelState.CREATED);

        Response got = perform("GET", MODELS + "stored", null);
        assertEquals(200, got.getStatusLine().getStatusCode());
        Map<String, Object> model = jsonBody(got);
        assertEquals(
                "the state document, without its doc_type",
                Set.of(
                        "model_id",
                        "state",
                        "method",
                        "input_dimension",
                        "dimensions",
                        "created_at",
                        "chunk_count",
                        "model_size_bytes"),
                model.keySet());
        assertEquals("stored", model.get("model_id"));
        assertEquals("created", model.get("state"));
        assertEquals(32, model.get("input_dimension"));

        Map<String, Object> withWeights = restCall("GET", MODELS + "stored?include_weights=true", null);
        assertArrayEquals(
                ModelFile.toBytes(artifact), Base64.getDecoder().decode((String) withWeights.get("model_file")));
        withWeights.remove("model_file");
        assertEquals(model, withWeights);

        for (String method : List.of("GET", "POST")) {
            Response found = perform(
                    method,
                    MODELS + "_search",
                    method.equals("POST") ? "{\"query\":{\"term\":{\"state\":\"created\"}}}" : null);
            assertEquals(200, found.getStatusLine().getStatusCode());
            List<Map<String, Object>> hits = (List<Map<String, Object>>)
                    ((Map<String, Object>) jsonBody(found).get("hits")).get("hits");
            assertEquals(
                    method,
                    List.of("stored"),
                    hits.stream().map(hit -> hit.get("_id")).toList());
            // a hit shows the model as GET does, without the index's own doc_type
            assertEquals(
                    method, model.keySet(), ((Map<String, Object>) hits.get(0).get("_source")).keySet());
        }

        // the caller's _source filtering holds, and never lets a chunk's data through
        Map<String, Object> filtered = restCall(
                "POST",
                MODELS + "_search",
                "{\"_source\":{\"includes\":[\"state\",\"data\"],\"excludes\":[\"model_id\"]}}");
        List<Map<String, Object>> filteredHits =
                (List<Map<String, Object>>) ((Map<String, Object>) filtered.get("hits")).get("hits");
        assertEquals(
                List.of(Map.of("state", "created")),
                filteredHits.stream().map(hit -> hit.get("_source")).toList());

        Map<String, Object> byState =
                restCall("POST", MODELS + "_search", "{\"size\":0,\"aggs\":{\"s\":{\"terms\":{\"field\":\"state\"}}}}");
        assertEquals(
                "aggregations see the model documents, not the chunks",
                List.of(Map.of("key", "created", "doc_count", 1)),
                ((Map<String, Object>) ((Map<String, Object>) byState.get("aggregations")).get("s")).get("buckets"));
        String global = restError(
                400,
                "POST",
                MODELS + "_search",
                "{\"size\":0,\"aggs\":{\"g\":{\"global\":{},\"aggs\":{\"c\":{\"top_hits\":{\"size\":100}}}}}}");
        assertTrue(global, global.contains("[aggs.g] aggregation type [global] is not supported in a model search"));
        assertFalse("no chunk reaches the answer", global.contains("\"data\""));

        Response deleted = perform("DELETE", MODELS + "stored", null);
        assertEquals(200, deleted.getStatusLine().getStatusCode());
        assertEquals(Map.of("model_id", "stored", "result", "deleted"), jsonBody(deleted));
        assertTrue(restError(404, "GET", MODELS + "stored", null).contains("model [stored] does not exist"));
    }

    public void testCancelOfAModelWithNoJobFailsItAtOnce() throws IOException {
        String local =
                internalCluster().getInstance(ClusterService.class).localNode().getId();
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("doc_type", "model");
        doc.put("model_id", "orphan");
        doc.put("state", "training");
        doc.put("node_id", local);
        doc.put("created_at", System.currentTimeMillis());
        PlainActionFuture<Void> created = PlainActionFuture.newFuture();
        internalCluster().getInstance(ModelIndex.class).create("orphan", doc, created);
        created.actionGet();

        Response cancelled = perform("POST", MODELS + "orphan/_cancel", null);
        assertEquals(200, cancelled.getStatusLine().getStatusCode());
        String reason =
                "cancelled: node [" + local + "] is not running its job: it restarted, or the job never started";
        assertEquals(Map.of("model_id", "orphan", "state", "failed", "error", reason), jsonBody(cancelled));
        assertTrue(restError(409, "POST", MODELS + "orphan/_cancel", null)
                .contains("model [orphan] is [failed], not [training]"));
        assertEquals(Map.of("model_id", "orphan", "result", "deleted"), restCall("DELETE", MODELS + "orphan", null));
    }

    public void testEachRouteTakesOnlyItsMethodsAndParameters() throws IOException {
        restError(405, "PUT", MODELS + "some-model", null);
        restError(405, "GET", "/_plugins/compress/_train", null);
        restError(405, "GET", MODELS + "some-model/_train", null);
        restError(405, "GET", MODELS + "some-model/_cancel", null);
        String parameter = restError(400, "DELETE", MODELS + "some-model?include_weights=true", null);
        assertTrue(parameter, parameter.contains("unrecognized parameter: [include_weights]"));
        for (String route : List.of("DELETE " + MODELS + "some-model", "POST " + MODELS + "some-model/_cancel")) {
            String[] call = route.split(" ");
            String body = restError(400, call[0], call[1], "{\"force\":true}");
            assertTrue(body, body.contains("[" + route + "] takes no request body"));
        }
        // the id is the model's, even when it reads like a route
        assertTrue(restError(404, "DELETE", MODELS + "_train", null).contains("model [_train] does not exist"));
    }
}
