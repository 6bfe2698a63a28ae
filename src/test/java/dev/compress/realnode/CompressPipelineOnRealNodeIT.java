package dev.compress.realnode;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import dev.compress.harness.RealNode;
import dev.compress.training.inference.CpuEncoders;
import dev.compress.training.model.ModelArtifact;
import dev.compress.training.model.ModelFile;
import dev.compress.training.model.ModelFileTests;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.BeforeClass;
import org.junit.Test;
import org.opensearch.client.Request;
import org.opensearch.client.Response;

/**
 * The {@code compress} processor and {@code model_id} on the real node (security agent, plugin class
 * loader): a model written into the model index, a pipeline, a bulk with one bad document, a search
 * with the model, and the same after a restart (the model is loaded again from the index).
 */
public class CompressPipelineOnRealNodeIT {

    private static final int INPUT_DIM = 48;
    private static RealNode node;

    @BeforeClass
    public static void startNode() throws Exception {
        node = RealNode.shared();
    }

    /** Writes the model the way the model index stores it: a state document and one chunk. */
    private static void storeModel(String id, ModelArtifact artifact) throws Exception {
        byte[] file = ModelFile.toBytes(artifact);
        // as a job created at 1 stores it: chunk ids are <model id>#<created_at>#<n>
        node.call(
                "PUT",
                "/.compress-models/_doc/" + id + "?refresh=true",
                "{\"doc_type\":\"model\",\"model_id\":\"" + id + "\",\"state\":\"created\","
                        + "\"method\":\"dive\",\"input_dimension\":" + INPUT_DIM
                        + ",\"dimensions\":[8,16],\"created_at\":1,\"chunk_count\":1,\"model_size_bytes\":"
                        + file.length + "}");
        node.call(
                "PUT",
                "/.compress-models/_doc/" + id + "%231%230?refresh=true",
                "{\"doc_type\":\"chunk\",\"model_id\":\"" + id + "\",\"chunk\":0,\"data\":\""
                        + Base64.getEncoder().encodeToString(file) + "\"}");
    }

    @SuppressWarnings("unchecked")
    private static List<String> searchIds(String knn) throws Exception {
        Map<String, Object> response =
                node.call("POST", "/rn-adapted/_search", "{\"size\":10,\"query\":{\"compressed_knn\":" + knn + "}}");
        List<String> ids = new ArrayList<>();
        for (Object hit : (List<Object>) ((Map<String, Object>) response.get("hits")).get("hits")) {
            ids.add((String) ((Map<String, Object>) hit).get("_id"));
        }
        return ids;
    }

    @Test
    @SuppressWarnings("unchecked")
    public void pipelineAndModelIdWorkAndSurviveARestart() throws Exception {
        ModelArtifact artifact = ModelFileTests.sampleModel(21, INPUT_DIM, 32, 16);
        storeModel("rn-model", artifact);
        node.call(
                "PUT",
                "/_ingest/pipeline/rn-adapt",
                "{\"processors\":["
                        + "{\"compress\":{\"model_id\":\"rn-model\",\"field\":\"raw\",\"target_field\":\"emb\"}},"
                        + "{\"compress\":{\"truncate_to\":8,\"field\":\"raw\",\"target_field\":\"trunc\"}}]}");
        node.call(
                "PUT",
                "/rn-adapted",
                "{\"settings\":{\"number_of_shards\":1,\"number_of_replicas\":0,\"index.compress\":true},\"mappings\":{\"properties\":{"
                        + "\"emb\":{\"type\":\"compressed_vector\",\"dimension\":16,\"encoding\":\"float\"},"
                        + "\"trunc\":{\"type\":\"compressed_vector\",\"dimension\":8,\"encoding\":\"binary\"}}}}");

        Random random = new Random(7);
        float[][] raw = new float[40][INPUT_DIM];
        StringBuilder bulk = new StringBuilder();
        for (int i = 0; i < raw.length; i++) {
            for (int j = 0; j < INPUT_DIM; j++) {
                raw[i][j] = (float) random.nextGaussian();
            }
            bulk.append("{\"index\":{\"_id\":\"")
                    .append(i)
                    .append("\"}}\n{\"raw\":")
                    .append(Arrays.toString(raw[i]))
                    .append("}\n");
        }
        bulk.append("{\"index\":{\"_id\":\"bad\"}}\n{\"raw\":")
                .append(Arrays.toString(Arrays.copyOf(raw[0], INPUT_DIM - 1)))
                .append("}\n");
        Request bulkRequest = new Request("POST", "/rn-adapted/_bulk?pipeline=rn-adapt&refresh=true");
        bulkRequest.setJsonEntity(bulk.toString());
        Response bulkResponse = node.client().performRequest(bulkRequest);
        String bulkBody = new String(
                bulkResponse.getEntity().getContent().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertEquals(1, bulkBody.split("\"error\"", -1).length - 1);
        assertTrue(bulkBody, bulkBody.contains("vector has 47 dimensions but model [rn-model] expects 48"));

        float[][] expected = CpuEncoders.forServing(artifact, 16).encode(raw);
        for (int i = 0; i < raw.length; i++) {
            Map<String, Object> source = (Map<String, Object>)
                    node.call("GET", "/rn-adapted/_doc/" + i, null).get("_source");
            List<Number> emb = (List<Number>) source.get("emb");
            for (int j = 0; j < 16; j++) {
                assertEquals(expected[i][j], emb.get(j).doubleValue(), 1e-6);
            }
            assertEquals(8, ((List<?>) source.get("trunc")).size());
        }

        float[] q = raw[3].clone();
        q[0] += 0.5f;
        String withModel = "{\"field\":\"emb\",\"k\":10,\"num_candidates\":40,\"model_id\":\"rn-model\",\"vector\":"
                + Arrays.toString(q) + "}";
        String byHand = "{\"field\":\"emb\",\"k\":10,\"num_candidates\":40,\"vector\":"
                + Arrays.toString(CpuEncoders.forServing(artifact, 16).encode(q)) + "}";
        List<String> expectedIds = searchIds(byHand);
        assertEquals(10, expectedIds.size());
        assertEquals(expectedIds, searchIds(withModel));

        node.restart();
        assertEquals(expectedIds, searchIds(withModel));
        Request again = new Request("PUT", "/rn-adapted/_doc/after-restart?pipeline=rn-adapt&refresh=true");
        again.setJsonEntity("{\"raw\":" + Arrays.toString(raw[5]) + "}");
        node.client().performRequest(again);
        Map<String, Object> source = (Map<String, Object>)
                node.call("GET", "/rn-adapted/_doc/after-restart", null).get("_source");
        assertFalse(((List<?>) source.get("emb")).isEmpty());
    }
}
