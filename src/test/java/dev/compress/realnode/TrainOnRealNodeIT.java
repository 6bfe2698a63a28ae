package dev.compress.realnode;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import dev.compress.harness.RealNode;
import dev.compress.training.TestData;
import dev.compress.training.data.EmbeddedDataset;
import dev.compress.training.data.Qrels;
import dev.compress.training.data.VectorRows;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * {@code _train} end to end on the real node, where the security agent, the plugin's class loader
 * and the training thread pool are the production ones: scifact loaded over REST, a DIVE job run to
 * {@code created} with per-epoch progress and a held-out report (its corpus file gone from the node's
 * temporary directory), then searched with {@code model_id}.
 */
public class TrainOnRealNodeIT {

    private static RealNode node;

    @BeforeClass
    public static void startNode() throws Exception {
        node = RealNode.shared();
    }

    private static void bulk(String index, StringBuilder lines) throws Exception {
        Map<String, Object> response = node.call("POST", "/" + index + "/_bulk", lines.toString());
        assertEquals(String.valueOf(response).substring(0, 500), false, response.get("errors"));
        lines.setLength(0);
    }

    private static void loadVectors(String index, VectorRows vectors, java.util.Set<String> only) throws Exception {
        StringBuilder lines = new StringBuilder();
        for (int i = 0; i < vectors.size(); i++) {
            if (only != null && only.contains(vectors.id(i)) == false) {
                continue;
            }
            lines.append("{\"index\":{\"_id\":\"")
                    .append(vectors.id(i))
                    .append("\"}}\n{\"id\":\"")
                    .append(vectors.id(i))
                    .append("\",\"vector\":")
                    .append(Arrays.toString(vectors.row(i)))
                    .append("}\n");
            if (lines.length() > 4_000_000) {
                bulk(index, lines);
            }
        }
        if (lines.length() > 0) {
            bulk(index, lines);
        }
    }

    @Test
    @SuppressWarnings("unchecked")
    public void diveTrainsOnTheRealNodeAndServesSearch() throws Exception {
        EmbeddedDataset ds = TestData.dataset("scifact", "bge-small-en-v1.5");
        String vectorMapping = "{\"type\":\"compressed_vector\",\"dimension\":" + ds.dim() + ",\"encoding\":\"float\"}";
        node.call(
                "PUT",
                "/rn-corpus",
                "{\"settings\":{\"number_of_shards\":1,\"number_of_replicas\":0,\"index.compress\":true},\"mappings\":{\"properties\":{\"vector\":"
                        + vectorMapping + "}}}");
        node.call(
                "PUT",
                "/rn-queries",
                "{\"settings\":{\"number_of_shards\":1,\"number_of_replicas\":0,\"index.compress\":true},\"mappings\":{\"properties\":{\"id\":{\"type\":\"keyword\"},\"vector\":"
                        + vectorMapping + "}}}");
        node.call(
                "PUT",
                "/rn-judgments",
                "{\"settings\":{\"number_of_shards\":1,\"number_of_replicas\":0,\"index.compress\":true},\"mappings\":{\"properties\":{"
                        + "\"query_id\":{\"type\":\"keyword\"},\"doc_id\":{\"type\":\"keyword\"},\"rating\":{\"type\":\"integer\"},\"split\":{\"type\":\"keyword\"}}}}");
        loadVectors("rn-corpus", ds.corpus(), null);
        Qrels train = ds.beir().qrels("train");
        Qrels test = ds.beir().qrels("test");
        java.util.Set<String> judged = new java.util.HashSet<>(train.queryIds());
        judged.addAll(test.queryIds());
        loadVectors("rn-queries", ds.queries(), judged);
        StringBuilder lines = new StringBuilder();
        for (Map.Entry<String, Qrels> split :
                Map.of("train", train, "test", test).entrySet()) {
            for (String q : split.getValue().queryIds()) {
                split.getValue()
                        .judgments(q)
                        .forEach((doc, rating) -> lines.append("{\"index\":{}}\n{\"query_id\":\"")
                                .append(q)
                                .append("\",\"doc_id\":\"")
                                .append(doc)
                                .append("\",\"rating\":")
                                .append(rating)
                                .append(",\"split\":\"")
                                .append(split.getKey())
                                .append("\"}\n"));
            }
        }
        bulk("rn-judgments", lines);
        node.call("POST", "/rn-corpus,rn-queries,rn-judgments/_refresh", null);

        Map<String, Object> started = node.call(
                "POST",
                "/_plugins/compress/models/rn-dive/_train",
                "{\"method\":\"dive\",\"dimensions\":64,"
                        + "\"corpus\":{\"index\":\"rn-corpus\",\"vector_field\":\"vector\"},\"queries\":{\"index\":\"rn-queries\",\"id_field\":\"id\"},"
                        + "\"judgments\":{\"index\":\"rn-judgments\"},\"split\":{\"field\":\"split\"},\"parameters\":{\"epochs\":3}}");
        assertEquals("training", started.get("state"));
        Map<String, Object> model = null;
        long deadline = System.nanoTime() + 10L * 60 * 1_000_000_000L;
        while (System.nanoTime() < deadline) {
            model = node.call("GET", "/_plugins/compress/models/rn-dive", null);
            if ("training".equals(model.get("state")) == false) {
                break;
            }
            Thread.sleep(1000);
        }
        assertEquals(String.valueOf(model) + "\n" + node.logTail(), "created", model.get("state"));
        Map<String, Object> evaluation = (Map<String, Object>) model.get("evaluation");
        assertEquals(300, evaluation.get("held_out_queries"));
        List<Map<String, Object>> rows = (List<Map<String, Object>>) evaluation.get("rows");
        assertEquals(
                "the frozen baseline of the held-out queries",
                0.7127,
                ((Number) rows.get(0).get("ndcg@10")).doubleValue(),
                0.001);
        Map<String, Object> progress = (Map<String, Object>) model.get("progress");
        assertFalse(((List<?>) progress.get("history")).isEmpty());
        Map<String, Object> nodes = (Map<String, Object>)
                node.call("GET", "/_nodes/_local/jvm", null).get("nodes");
        List<String> jvmArguments = (List<String>) ((Map<String, Object>)
                        ((Map<String, Object>) nodes.values().iterator().next()).get("jvm"))
                .get("input_arguments");
        assertTrue(
                "the node's temporary directory is the one looked into below",
                jvmArguments.contains("-Djava.io.tmpdir=" + node.tmpDir()));
        try (Stream<Path> files = Files.list(node.tmpDir())) {
            // the plugin's CorpusFile names: under the real security policy the job deleted its file
            assertEquals(
                    List.of(),
                    files.filter(f -> f.getFileName().toString().startsWith("compress-corpus-"))
                            .toList());
        }

        node.call(
                "PUT",
                "/_ingest/pipeline/rn-dive",
                "{\"processors\":[{\"compress\":{\"model_id\":\"rn-dive\",\"field\":\"raw\",\"target_field\":\"small\"}}]}");
        node.call(
                "PUT",
                "/rn-served",
                "{\"settings\":{\"number_of_shards\":1,\"number_of_replicas\":0,\"index.compress\":true,\"default_pipeline\":\"rn-dive\"},"
                        + "\"mappings\":{\"properties\":{\"small\":{\"type\":\"compressed_vector\",\"dimension\":64,\"encoding\":\"binary\"},\"raw\":{\"type\":\"object\",\"enabled\":false}}}}");
        StringBuilder docs = new StringBuilder();
        for (int i = 0; i < 500; i++) {
            docs.append("{\"index\":{\"_id\":\"")
                    .append(ds.corpus().id(i))
                    .append("\"}}\n{\"raw\":")
                    .append(Arrays.toString(ds.corpus().row(i)))
                    .append("}\n");
        }
        bulk("rn-served", docs);
        node.call("POST", "/rn-served/_refresh", null);
        String query =
                "{\"size\":10,\"query\":{\"compressed_knn\":{\"field\":\"small\",\"model_id\":\"rn-dive\",\"k\":10,\"vector\":"
                        + Arrays.toString(ds.corpus().row(7)) + "}}}";
        List<Map<String, Object>> hits = (List<Map<String, Object>>) ((Map<String, Object>)
                        node.call("POST", "/rn-served/_search", query).get("hits"))
                .get("hits");
        assertEquals(10, hits.size());
        assertEquals(
                "a stored document finds itself through the model",
                ds.corpus().id(7),
                hits.get(0).get("_id"));
        assertTrue(node.log().contains("model [rn-dive] created"));
    }
}
