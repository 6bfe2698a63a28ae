package dev.compress.plugin.warmup;

import dev.compress.plugin.CompressClusterTestCase;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.opensearch.cluster.ClusterState;
import org.opensearch.cluster.routing.ShardRouting;
import org.opensearch.test.OpenSearchIntegTestCase;

/**
 * {@code GET _plugins/compress/warmup/{index}} over real HTTP on two data nodes: every shard copy
 * is read, each node splits its warming searches among its copies, the answer is k-NN's {@code _shards}
 * header, and bad index names and {@code searches} values are 4xx naming them.
 */
@SuppressWarnings("unchecked")
@OpenSearchIntegTestCase.ClusterScope(scope = OpenSearchIntegTestCase.Scope.SUITE, numDataNodes = 2, numClientNodes = 0)
public class WarmupRestTests extends CompressClusterTestCase {

    private static final int DIM = 16;

    private static void createAndFill(String index, String encoding, int shards, int replicas) throws IOException {
        restCall(
                "PUT",
                "/" + index,
                "{\"settings\":{\"index.compress\":true,\"number_of_shards\":" + shards + ",\"number_of_replicas\":"
                        + replicas + "},\"mappings\":{\"properties\":{\"v\":{\"type\":\"compressed_vector\","
                        + "\"dimension\":" + DIM + ",\"encoding\":\"" + encoding + "\"}}}}");
        StringBuilder bulk = new StringBuilder();
        for (float[] v : gaussian(random(), 50, DIM)) {
            bulk.append("{\"index\":{\"_index\":\"" + index + "\"}}\n{\"v\":" + Arrays.toString(v) + "}\n");
        }
        restCall("POST", "/_bulk?refresh=true", bulk.toString());
    }

    public void testReadsEveryShardCopyOfEachIndex() throws IOException {
        createAndFill("warm-binary", "binary", 2, 1);
        createAndFill("warm-float", "float", 1, 1);
        ensureGreen("warm-binary", "warm-float");
        Map<String, Object> binary = restCall("GET", "/_plugins/compress/warmup/warm-binary", null);
        Map<String, Object> shards = (Map<String, Object>) binary.get("_shards");
        assertEquals("2 shards with a replica each", 4, shards.get("total"));
        assertEquals(4, shards.get("successful"));
        assertEquals(0, shards.get("failed"));
        Map<String, Object> warmed = (Map<String, Object>) binary.get("warmed");
        assertTrue(String.valueOf(binary), ((Number) warmed.get("files")).intValue() >= 4);
        assertTrue(String.valueOf(binary), ((Number) warmed.get("bytes")).longValue() > 0);
        assertEquals(
                "each node splits its searches between its two copies",
                2 * WarmupRequest.DEFAULT_SEARCHES,
                ((Number) warmed.get("searches")).intValue());

        Map<String, Object> floats = restCall("GET", "/_plugins/compress/warmup/warm-float", null);
        long floatBytes = ((Number) ((Map<String, Object>) floats.get("warmed")).get("bytes")).longValue();
        assertTrue("a float field's vectors are read, on both copies: " + floats, floatBytes >= 2L * 50 * DIM * 4);

        Map<String, Object> both = restCall("GET", "/_plugins/compress/warmup/warm-binary,warm-float", null);
        assertEquals(6, ((Map<String, Object>) both.get("_shards")).get("successful"));
        assertEquals(
                ((Number) warmed.get("bytes")).longValue() + floatBytes,
                ((Number) ((Map<String, Object>) both.get("warmed")).get("bytes")).longValue());
        assertEquals(
                "three copies on each node split its searches, not each running them all",
                2 * WarmupRequest.DEFAULT_SEARCHES,
                ((Number) ((Map<String, Object>) both.get("warmed")).get("searches")).intValue());
        Map<String, Object> one = restCall("GET", "/_plugins/compress/warmup/warm-binary,warm-float?searches=1", null);
        assertEquals(
                "one search per node, whichever copy runs it",
                2,
                ((Number) ((Map<String, Object>) one.get("warmed")).get("searches")).intValue());
    }

    public void testSearchesParameter() throws IOException {
        createAndFill("warm-searches", "binary", 1, 1);
        restCall(
                "PUT",
                "/warm-novectors",
                "{\"settings\":{\"index.compress\":true,\"number_of_shards\":1,\"number_of_replicas\":0},"
                        + "\"mappings\":{\"properties\":{\"t\":{\"type\":\"keyword\"},\"v\":{\"type\":"
                        + "\"compressed_vector\",\"dimension\":" + DIM + ",\"encoding\":\"binary\"}}}}");
        restCall("POST", "/warm-novectors/_doc?refresh=true", "{\"t\":\"a document without a vector\"}");
        ensureGreen("warm-searches", "warm-novectors");

        Map<String, Object> few =
                (Map<String, Object>) restCall("GET", "/_plugins/compress/warmup/warm-searches?searches=7", null)
                        .get("warmed");
        assertEquals("7 on each of the two nodes", 14, ((Number) few.get("searches")).intValue());

        Map<String, Object> none =
                (Map<String, Object>) restCall("GET", "/_plugins/compress/warmup/warm-searches?searches=0", null)
                        .get("warmed");
        assertEquals(0, ((Number) none.get("searches")).intValue());
        assertEquals("files are read all the same", few.get("bytes"), none.get("bytes"));

        Map<String, Object> noVectors =
                (Map<String, Object>) restCall("GET", "/_plugins/compress/warmup/warm-novectors", null)
                        .get("warmed");
        assertEquals(
                "a vector field without vectors is not searched", 0, ((Number) noVectors.get("searches")).intValue());

        String negative = restError(400, "GET", "/_plugins/compress/warmup/warm-searches?searches=-1", null);
        assertTrue(negative, negative.contains("[searches] must be between 0 and 10000, got [-1]"));
        String tooMany = restError(400, "GET", "/_plugins/compress/warmup/warm-searches?searches=10001", null);
        assertTrue(tooMany, tooMany.contains("got [10001]"));
        String word = restError(400, "GET", "/_plugins/compress/warmup/warm-searches?searches=many", null);
        assertTrue(word, word.contains("[searches] must be a whole number, got [many]"));
    }

    public void testEachCopyOnANodeRunsAnEvenShare() throws IOException {
        createAndFill("share-binary", "binary", 3, 0);
        createAndFill("share-float", "float", 2, 0);
        ensureGreen("share-binary", "share-float");
        WarmupRequest request = new WarmupRequest("share-*").searches(1000);
        ClusterState state = clusterService().state();
        int copies = 0;
        for (String node : internalCluster().getNodeNames()) {
            TransportWarmupAction action = internalCluster().getInstance(TransportWarmupAction.class, node);
            String nodeId = internalCluster().clusterService(node).localNode().getId();
            List<Integer> shares = new ArrayList<>();
            for (ShardRouting copy : state.routingTable().allShards(new String[] {"share-binary", "share-float"})) {
                if (nodeId.equals(copy.currentNodeId())) {
                    shares.add(action.searchesFor(request, copy));
                }
            }
            copies += shares.size();
            if (shares.isEmpty() == false) {
                assertEquals(
                        shares.toString(),
                        1000,
                        shares.stream().mapToInt(Integer::intValue).sum());
                int least = 1000 / shares.size();
                assertTrue(shares.toString(), shares.stream().allMatch(n -> n == least || n == least + 1));
            }
        }
        assertEquals(5, copies);
    }

    public void testNestedVectorsAndDeletedDocumentsAreSearched() throws IOException {
        restCall(
                "PUT",
                "/warm-nested",
                "{\"settings\":{\"index.compress\":true,\"number_of_shards\":1,\"number_of_replicas\":0},"
                        + "\"mappings\":{\"properties\":{\"chunks\":{\"type\":\"nested\",\"properties\":{\"v\":{"
                        + "\"type\":\"compressed_vector\",\"dimension\":" + DIM + ",\"encoding\":\"binary\"}}}}}}");
        StringBuilder bulk = new StringBuilder();
        float[][] vectors = gaussian(random(), 60, DIM);
        for (int doc = 0; doc < 30; doc++) {
            bulk.append("{\"index\":{\"_index\":\"warm-nested\",\"_id\":\"" + doc + "\"}}\n{\"chunks\":[{\"v\":"
                    + Arrays.toString(vectors[2 * doc]) + "},{\"v\":" + Arrays.toString(vectors[2 * doc + 1])
                    + "}]}\n");
        }
        restCall("POST", "/_bulk?refresh=true", bulk.toString());
        for (int doc = 0; doc < 30; doc += 3) {
            restCall("DELETE", "/warm-nested/_doc/" + doc + "?refresh=true", null);
        }
        ensureGreen("warm-nested");
        Map<String, Object> answer = restCall("GET", "/_plugins/compress/warmup/warm-nested?searches=40", null);
        assertEquals(String.valueOf(answer), 0, ((Map<String, Object>) answer.get("_shards")).get("failed"));
        assertEquals(
                "the one node holding the copy runs them on the nested field",
                40,
                ((Number) ((Map<String, Object>) answer.get("warmed")).get("searches")).intValue());
    }

    public void testUnknownIndexIsA404NamingIt() throws IOException {
        createAndFill("warm-known", "binary", 1, 0);
        String error = restError(404, "GET", "/_plugins/compress/warmup/warm-known,warm-missing", null);
        assertTrue(error, error.contains("no such index [warm-missing]"));
    }

    @SuppressWarnings("unchecked")
    public void testIndexWithoutIndexCompressIsA400NamingIt() throws IOException {
        restCall("PUT", "/warm-plain", "{\"settings\":{\"number_of_shards\":1,\"number_of_replicas\":0}}");
        createAndFill("warm-ours", "binary", 1, 0);
        String error = restError(400, "GET", "/_plugins/compress/warmup/warm-ours,warm-plain", null);
        assertTrue(error, error.contains("[index.compress: true]"));
        assertTrue(error, error.contains("[warm-plain]"));
        assertFalse(error, error.contains("warm-ours]"));
        // reached by a pattern, an index of another kind is skipped: * warms every index of ours
        for (String all : List.of("warm-*", "_all", "*,-warm-plain")) {
            Map<String, Object> warmed = restCall("GET", "/_plugins/compress/warmup/" + all, null);
            assertEquals(all + ": " + warmed, 1, ((Map<String, Object>) warmed.get("_shards")).get("total"));
            assertEquals(all + ": " + warmed, 1, ((Map<String, Object>) warmed.get("_shards")).get("successful"));
        }
        Map<String, Object> lenient = restCall(
                "GET", "/_plugins/compress/warmup/warm-ours,warm-missing?ignore_unavailable=true&searches=0", null);
        assertEquals(String.valueOf(lenient), 1, ((Map<String, Object>) lenient.get("_shards")).get("successful"));
    }
}
