package dev.compress.realnode;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import dev.compress.harness.RealNode;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.lucene.index.CheckIndex;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FSDirectory;
import org.junit.BeforeClass;
import org.junit.Test;
import org.opensearch.client.Request;
import org.opensearch.client.Response;

/**
 * compressed_vector on the real node: segments written by our formats reopen after a restart with
 * identical search results, and Lucene's CheckIndex finds every shard clean.
 */
public class CompressedVectorOnRealNodeIT {

    private static final int DIMS = 96;
    private static RealNode node;

    @BeforeClass
    public static void startNode() throws Exception {
        node = RealNode.shared();
    }

    private static String call(String method, String path, String body) throws Exception {
        Request request = new Request(method, path);
        if (body != null) {
            request.setJsonEntity(body);
        }
        Response response = node.client().performRequest(request);
        return new String(response.getEntity().getContent().readAllBytes(), StandardCharsets.UTF_8);
    }

    private static String vector(Random random) {
        double[] v = new double[DIMS];
        double norm = 0;
        for (int i = 0; i < DIMS; i++) {
            v[i] = random.nextGaussian();
            norm += v[i] * v[i];
        }
        StringBuilder sb = new StringBuilder("[");
        for (int i = 0; i < DIMS; i++) {
            sb.append(i == 0 ? "" : ",").append((float) (v[i] / Math.sqrt(norm)));
        }
        return sb.append(']').toString();
    }

    private static List<String> searches(List<String> queries) throws Exception {
        List<String> answers = new ArrayList<>();
        for (String q : queries) {
            for (String field : List.of("bits", "floats")) {
                String body = call(
                        "POST",
                        "/vectors/_search?filter_path=hits.hits._id,hits.hits._score",
                        "{\"size\":10,\"query\":{\"compressed_knn\":{\"field\":\"" + field + "\",\"vector\":" + q
                                + ",\"k\":10}}}");
                assertTrue(body, body.contains("_id"));
                answers.add(body);
            }
        }
        return answers;
    }

    @Test
    public void segmentsReopenAfterRestartWithIdenticalResultsAndCheckIndexIsClean() throws Exception {
        call(
                "PUT",
                "/vectors",
                "{\"settings\":{\"number_of_shards\":2,\"number_of_replicas\":0,\"index.compress\":true},\"mappings\":{\"properties\":{"
                        + "\"bits\":{\"type\":\"compressed_vector\",\"dimension\":" + DIMS
                        + ",\"encoding\":\"binary\"},"
                        + "\"floats\":{\"type\":\"compressed_vector\",\"dimension\":" + DIMS
                        + ",\"encoding\":\"float\"}}}}");
        Random random = new Random(42);
        for (int batch = 0; batch < 3; batch++) {
            StringBuilder bulk = new StringBuilder();
            for (int i = 0; i < 100; i++) {
                String v = vector(random);
                bulk.append("{\"index\":{\"_index\":\"vectors\",\"_id\":\"")
                        .append(batch * 100 + i)
                        .append("\"}}\n");
                bulk.append("{\"bits\":")
                        .append(v)
                        .append(",\"floats\":")
                        .append(v)
                        .append("}\n");
            }
            String result = call("POST", "/_bulk?refresh=true", bulk.toString());
            assertTrue(result, result.contains("\"errors\":false"));
        }
        call("POST", "/vectors/_flush", null);
        List<String> queries = List.of(vector(random), vector(random), vector(random));
        List<String> before = searches(queries);

        node.restart();
        call("GET", "/_cluster/health/vectors?wait_for_status=green&timeout=60s", null);
        assertEquals(before, searches(queries));

        String uuid = call("GET", "/vectors/_settings?filter_path=*.settings.index.uuid", null)
                .replaceAll(".*\"uuid\":\"([^\"]+)\".*", "$1");
        node.stop();
        try {
            List<Path> shards = node.shardIndexDirectories(uuid);
            assertEquals(2, shards.size());
            for (Path shard : shards) {
                assertClean(shard);
            }
        } finally {
            node.start();
        }
    }

    private static void assertClean(Path shard) throws Exception {
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        try (Directory dir = FSDirectory.open(shard);
                CheckIndex checker = new CheckIndex(dir)) {
            checker.setInfoStream(new PrintStream(log, true, StandardCharsets.UTF_8));
            checker.setLevel(CheckIndex.Level.MIN_LEVEL_FOR_SLOW_CHECKS);
            CheckIndex.Status status = checker.checkIndex();
            String report = log.toString(StandardCharsets.UTF_8);
            assertTrue("CheckIndex found problems in " + shard + ":\n" + report, status.clean);
            assertFalse(report, status.segmentInfos.isEmpty());
            long vectors = 0;
            long docs = 0;
            for (CheckIndex.Status.SegmentInfoStatus segment : status.segmentInfos) {
                vectors += segment.vectorValuesStatus.totalVectorValues;
                docs += segment.maxDoc;
            }
            assertEquals("both vector fields of every document were checked:\n" + report, 2 * docs, vectors);
        }
    }
}
