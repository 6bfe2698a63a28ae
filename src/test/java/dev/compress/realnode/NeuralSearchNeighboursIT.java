package dev.compress.realnode;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import dev.compress.harness.RealNode;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Random;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.Test;
import org.opensearch.client.Request;
import org.opensearch.client.Response;

/**
 * k-NN, job-scheduler, ml-commons, neural-search (the published zips) and ours on one real node: a
 * neural-search sparse index ({@code index.sparse: true}, a {@code sparse_vector} field with the
 * seismic method) creates and indexes beside one of ours: an index has one codec service, and a
 * plugin that claimed indexes not its own would make creating it fail with a 500 ("existing codec
 * service factory already overridden"). Only in {@code mvn verify -Pneighbours}: ml-commons' zip
 * is about 390 MB.
 */
public class NeuralSearchNeighboursIT {

    private static final int DOCS = 30;
    private static RealNode node;

    @BeforeClass
    public static void startNode() throws Exception {
        // each after what it extends: neural-search extends k-NN, ml-commons extends job-scheduler,
        // and neural-search calls ml-commons
        node = RealNode.withPluginsBefore(
                "neural-neighbours",
                List.of(
                        RealNode.pluginZip("realnode.knn.zip"),
                        RealNode.pluginZip("realnode.job-scheduler.zip"),
                        RealNode.pluginZip("realnode.ml-commons.zip"),
                        RealNode.pluginZip("realnode.neural-search.zip")),
                "1g");
        node.start();
    }

    @AfterClass
    public static void stopNode() throws Exception {
        if (node != null) {
            node.close();
        }
    }

    private static String call(String method, String path, String body) throws Exception {
        Request request = new Request(method, path);
        if (body != null) {
            request.setJsonEntity(body);
        }
        Response response = node.client().performRequest(request);
        return new String(response.getEntity().getContent().readAllBytes(), StandardCharsets.UTF_8);
    }

    @Test
    public void allPluginsAreInstalled() throws Exception {
        String plugins = call("GET", "/_cat/plugins?h=component", null);
        for (String plugin : List.of(
                "opensearch-knn",
                "opensearch-job-scheduler",
                "opensearch-ml",
                "opensearch-neural-search",
                "embedding-compress")) {
            assertTrue(plugin + " in " + plugins, plugins.contains(plugin));
        }
    }

    @Test
    public void sparseIndexCreatesAndIndexesBesideOurs() throws Exception {
        call(
                "PUT",
                "/sparse1",
                "{\"settings\":{\"index.sparse\":true},\"mappings\":{\"properties\":{\"sv\":{\"type\":\"sparse_vector\",\"method\":{\"name\":\"seismic\","
                        + "\"parameters\":{\"n_postings\":300,\"cluster_ratio\":0.1,\"summary_prune_ratio\":0.4,\"approximate_threshold\":10}}}}}}");
        call(
                "PUT",
                "/ours",
                "{\"settings\":{\"number_of_shards\":1,\"index.compress\":true},\"mappings\":{\"properties\":{"
                        + "\"floats\":{\"type\":\"compressed_vector\",\"dimension\":8,\"encoding\":\"float\"}}}}");

        Random random = new Random(3);
        StringBuilder sparse = new StringBuilder();
        StringBuilder ours = new StringBuilder();
        for (int i = 0; i < DOCS; i++) {
            // token ids and positive weights, as a sparse encoder writes them
            sparse.append("{\"index\":{\"_id\":\"")
                    .append(i)
                    .append("\"}}\n{\"sv\":{\"")
                    .append(100 + i % 7)
                    .append("\":")
                    .append(0.5f + random.nextFloat())
                    .append(",\"")
                    .append(200 + i)
                    .append("\":")
                    .append(0.1f + random.nextFloat())
                    .append("}}\n");
            StringBuilder v = new StringBuilder("[");
            for (int d = 0; d < 8; d++) {
                v.append(d == 0 ? "" : ",").append((float) random.nextGaussian());
            }
            ours.append("{\"index\":{\"_id\":\"")
                    .append(i)
                    .append("\"}}\n{\"floats\":")
                    .append(v)
                    .append("]}\n");
        }
        String sparseResult = call("POST", "/sparse1/_bulk?refresh=true", sparse.toString());
        assertTrue(sparseResult, sparseResult.contains("\"errors\":false"));
        String ourResult = call("POST", "/ours/_bulk?refresh=true", ours.toString());
        assertTrue(ourResult, ourResult.contains("\"errors\":false"));
        call("POST", "/sparse1,ours/_flush", null);

        assertEquals("{\"count\":" + DOCS + "}", call("GET", "/sparse1/_count?filter_path=count", null));
        String sparseCommit = ShardFiles.lastCommit(ShardFiles.shardDirectory(node, "sparse1"));
        assertTrue(
                "neural-search's codec wrote the sparse index",
                sparseCommit.contains("Sparse") && sparseCommit.contains("Codec"));
        assertEquals("{\"count\":" + DOCS + "}", call("GET", "/ours/_count?filter_path=count", null));
        String hits = call(
                "POST",
                "/ours/_search?filter_path=hits.hits._id",
                "{\"size\":3,\"query\":{\"compressed_knn\":{\"field\":\"floats\",\"k\":3,"
                        + "\"vector\":[1,0,0,0,0,0,0,0]}}}");
        assertEquals(hits, 3, hits.split("_id", -1).length - 1);
    }
}
