package dev.compress.plugin.ingest;

import static org.opensearch.test.hamcrest.OpenSearchAssertions.assertAcked;
import static org.opensearch.test.hamcrest.OpenSearchAssertions.assertNoFailures;

import dev.compress.plugin.CompressClusterTestCase;
import dev.compress.plugin.model.ModelState;
import dev.compress.training.inference.CpuEncoders;
import dev.compress.training.model.ModelArtifact;
import dev.compress.training.model.ModelFileTests;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.opensearch.action.bulk.BulkItemResponse;
import org.opensearch.action.bulk.BulkRequestBuilder;
import org.opensearch.action.bulk.BulkResponse;
import org.opensearch.action.get.GetResponse;
import org.opensearch.action.support.WriteRequest;
import org.opensearch.common.xcontent.XContentFactory;
import org.opensearch.common.xcontent.XContentType;
import org.opensearch.core.common.bytes.BytesArray;
import org.opensearch.core.xcontent.XContentBuilder;
import org.opensearch.test.OpenSearchIntegTestCase;

/** The {@code compress} processor in pipelines on two data nodes, against the training engine's own encoder. */
@OpenSearchIntegTestCase.ClusterScope(scope = OpenSearchIntegTestCase.Scope.SUITE, numDataNodes = 2, numClientNodes = 0)
public class CompressPipelineTests extends CompressClusterTestCase {

    private static final int INPUT_DIM = 32;

    /** Nested model 32 -> {8, 16}, L2-normalised output. */
    private static ModelArtifact adapter() {
        return ModelFileTests.sampleModel(7, INPUT_DIM, 48, 16);
    }

    private void putPipeline(String id, String processors) {
        String body = "{\"processors\":[" + processors + "]}";
        assertAcked(client().admin()
                .cluster()
                .preparePutPipeline(id, new BytesArray(body), XContentType.JSON)
                .get());
    }

    private void createIndex(String index) {
        client().admin()
                .indices()
                .prepareCreate(index)
                .setSettings(org.opensearch.common.settings.Settings.builder()
                        .put("index.number_of_shards", 2)
                        .put("index.number_of_replicas", 0)
                        .put("index.compress", true))
                .setMapping("{\"properties\":{"
                        + "\"emb\":{\"type\":\"compressed_vector\",\"dimension\":16,\"encoding\":\"float\"},"
                        + "\"emb8\":{\"type\":\"compressed_vector\",\"dimension\":8,\"encoding\":\"float\"},"
                        + "\"trunc\":{\"type\":\"compressed_vector\",\"dimension\":8,\"encoding\":\"binary\"}}}")
                .get();
    }

    private static void assertVector(String what, float[] expected, Object actual) {
        List<?> values = (List<?>) actual;
        assertEquals(what, expected.length, values.size());
        for (int i = 0; i < expected.length; i++) {
            assertEquals(what + " [" + i + "]", expected[i], ((Number) values.get(i)).doubleValue(), 1e-6);
        }
    }

    /** Prefix + L2 renormalisation, computed here in double precision. */
    private static float[] truncated(float[] v, int d) {
        double norm = 0;
        for (int i = 0; i < d; i++) {
            norm += (double) v[i] * v[i];
        }
        float[] out = new float[d];
        for (int i = 0; i < d; i++) {
            out[i] = (float) (v[i] / Math.sqrt(norm));
        }
        return out;
    }

    public void testOutputEqualsTheEngineEncoderAndTruncation() {
        ModelArtifact artifact = adapter();
        storeModel("adapter", artifact, ModelState.CREATED);
        putPipeline(
                "adapt",
                "{\"compress\":{\"model_id\":\"adapter\",\"field\":\"raw\",\"target_field\":\"emb\",\"batch_size\":7}},"
                        + "{\"compress\":{\"model_id\":\"adapter\",\"dimension\":8,\"field\":\"raw\",\"target_field\":\"emb8\"}},"
                        + "{\"compress\":{\"truncate_to\":8,\"field\":\"raw\",\"target_field\":\"trunc\"}}");
        createIndex("adapted");
        float[][] raw = gaussian(new Random(randomLong()), 50, INPUT_DIM);
        BulkRequestBuilder bulk = client().prepareBulk().setRefreshPolicy(WriteRequest.RefreshPolicy.IMMEDIATE);
        for (int i = 0; i < raw.length; i++) {
            bulk.add(client().prepareIndex("adapted")
                    .setId(Integer.toString(i))
                    .setSource(Map.of("raw", raw[i]))
                    .setPipeline("adapt"));
        }
        assertNoFailures(bulk.get());

        float[][] expected16 = CpuEncoders.forServing(artifact, 16).encode(raw);
        float[][] expected8 = CpuEncoders.forServing(artifact, 8).encode(raw);
        for (int i = 0; i < raw.length; i++) {
            Map<String, Object> source =
                    client().prepareGet("adapted", Integer.toString(i)).get().getSource();
            assertVector("emb of " + i, expected16[i], source.get("emb"));
            assertVector("emb8 of " + i, expected8[i], source.get("emb8"));
            assertVector("trunc of " + i, truncated(raw[i], 8), source.get("trunc"));
        }
        assertEquals(List.of("adapt"), ModelPipelines.using(clusterService().state(), "adapter"));
    }

    private static String json(Object value) throws IOException {
        XContentBuilder builder =
                XContentFactory.jsonBuilder().startObject().field("raw", value).endObject();
        return builder.toString();
    }

    public void testBulkFailsExactlyTheBadDocuments() throws IOException {
        storeModel("good-model", adapter(), ModelState.CREATED);
        storeModel("young-model", adapter(), ModelState.TRAINING);
        String processor = "{\"compress\":{\"model_id\":\"%s\",\"field\":\"raw\",\"target_field\":\"emb\"%s}}";
        putPipeline("good", String.format(java.util.Locale.ROOT, processor, "good-model", ""));
        putPipeline("ghost", String.format(java.util.Locale.ROOT, processor, "no-such-model", ""));
        putPipeline("young", String.format(java.util.Locale.ROOT, processor, "young-model", ""));
        putPipeline(
                "odd-dimension", String.format(java.util.Locale.ROOT, processor, "good-model", ",\"dimension\":12"));
        createIndex("mixed");

        float[][] raw = gaussian(new Random(randomLong()), 6, INPUT_DIM);
        List<Object> tooShort = new ArrayList<>();
        for (int i = 0; i < INPUT_DIM - 1; i++) {
            tooShort.add(0.5);
        }
        List<Object> overflow = new ArrayList<>();
        for (int i = 0; i < INPUT_DIM; i++) {
            overflow.add(i == 3 ? 1e39 : 0.5);
        }
        // id -> [pipeline, source], and the message each bad one must fail with
        Map<String, Object[]> docs = new HashMap<>();
        Map<String, String> expectedErrors = new HashMap<>();
        for (int i = 0; i < 4; i++) {
            docs.put("good-" + i, new Object[] {"good", json(raw[i])});
        }
        docs.put("missing", new Object[] {"good", "{\"other\":1}"});
        expectedErrors.put("missing", "[compress] field [raw] is missing");
        docs.put("string", new Object[] {"good", "{\"raw\":\"0.1,0.2\"}"});
        expectedErrors.put("string", "[compress] field [raw]: expected an array of numbers, got [string 0.1,0.2]");
        docs.put("short", new Object[] {"good", json(tooShort)});
        expectedErrors.put(
                "short", "[compress] field [raw]: vector has 31 dimensions but model [good-model] expects 32");
        docs.put("overflow", new Object[] {"good", json(overflow)});
        expectedErrors.put("overflow", "[compress] field [raw]: value [1.0E39] at position 3 is not a finite float");
        docs.put("ghost", new Object[] {"ghost", json(raw[4])});
        expectedErrors.put("ghost", "model [no-such-model] does not exist");
        docs.put("young", new Object[] {"young", json(raw[5])});
        expectedErrors.put("young", "model [young-model] is in state [training]; only [created] models can be used");
        docs.put("odd", new Object[] {"odd-dimension", json(raw[5])});
        expectedErrors.put("odd", "model [good-model] serves output dimensions [8, 16], not [12]");

        BulkRequestBuilder bulk = client().prepareBulk().setRefreshPolicy(WriteRequest.RefreshPolicy.IMMEDIATE);
        docs.forEach((id, doc) -> bulk.add(client().prepareIndex("mixed")
                .setId(id)
                .setPipeline((String) doc[0])
                .setSource((String) doc[1], XContentType.JSON)));
        BulkResponse response = bulk.get();
        Map<String, String> failures = new HashMap<>();
        for (BulkItemResponse item : response.getItems()) {
            if (item.isFailed()) {
                failures.put(item.getId(), item.getFailureMessage());
            }
        }
        assertEquals(expectedErrors.keySet(), failures.keySet());
        expectedErrors.forEach((id, message) ->
                assertTrue(id + ": " + failures.get(id), failures.get(id).contains(message)));
        for (int i = 0; i < 4; i++) {
            GetResponse good = client().prepareGet("mixed", "good-" + i).get();
            assertTrue(good.isExists());
            assertEquals(16, ((List<?>) good.getSource().get("emb")).size());
        }
        assertEquals(
                4,
                client().prepareSearch("mixed")
                        .setSize(0)
                        .get()
                        .getHits()
                        .getTotalHits()
                        .value());
    }

    private void assertConfigError(String processorBody, String... expected) throws IOException {
        String error = restError(
                400, "PUT", "/_ingest/pipeline/bad", "{\"processors\":[{\"compress\":" + processorBody + "}]}");
        for (String part : expected) {
            assertTrue(processorBody + " -> " + error, error.contains(part));
        }
    }

    public void testConfigurationErrorsAre400sNamingTheParameter() throws IOException {
        assertConfigError(
                "{\"field\":\"a\",\"target_field\":\"b\"}",
                "[model_id] exactly one of [model_id] and [truncate_to] is required");
        assertConfigError(
                "{\"field\":\"a\",\"target_field\":\"b\",\"model_id\":\"m\",\"truncate_to\":8}",
                "exactly one of [model_id] and [truncate_to]");
        assertConfigError("{\"target_field\":\"b\",\"truncate_to\":8}", "[field] required property is missing");
        assertConfigError("{\"field\":\"a\",\"truncate_to\":8}", "[target_field] required property is missing");
        assertConfigError(
                "{\"field\":\"a\",\"target_field\":\"b\",\"truncate_to\":0}",
                "[truncate_to] must be in [1, 16000], got [0]");
        assertConfigError("{\"field\":\"a\",\"target_field\":\"b\",\"truncate_to\":\"many\"}", "[truncate_to]");
        assertConfigError(
                "{\"field\":\"a\",\"target_field\":\"b\",\"model_id\":\"m\",\"dimension\":-1}",
                "[dimension] must be in [1, 16000], got [-1]");
        assertConfigError(
                "{\"field\":\"a\",\"target_field\":\"b\",\"truncate_to\":8,\"dimension\":4}",
                "[dimension] applies only with [model_id]");
        assertConfigError(
                "{\"field\":\"a\",\"target_field\":\"b\",\"model_id\":\" \"}", "[model_id] must not be empty");
        assertConfigError("{\"field\":\"a\",\"target_field\":\"b\",\"modle_id\":\"m\",\"truncate_to\":8}", "modle_id");
        assertConfigError("{\"field\":\"a\",\"target_field\":\"b\",\"truncate_to\":8,\"batch_size\":0}", "batch_size");
        assertConfigError(
                "{\"field\":\"a\",\"target_field\":\"b\",\"truncate_to\":8,\"ignore_missing\":\"perhaps\"}",
                "ignore_missing");
    }
}
