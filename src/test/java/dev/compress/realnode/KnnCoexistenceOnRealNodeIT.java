package dev.compress.realnode;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import dev.compress.harness.RealNode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.IntStream;
import org.apache.lucene.codecs.perfield.PerFieldKnnVectorsFormat;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.FieldInfo;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FSDirectory;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.Test;
import org.opensearch.client.Request;
import org.opensearch.client.Response;
import org.opensearch.client.ResponseException;

/**
 * The k-NN plugin (the published zip, installed first) and ours on one real node: each plugin's
 * indexes work beside the other's, a {@code knn_vector} index reindexes into a {@code compressed_vector}
 * index through a {@code compress} pipeline, a plain index is left to the default codec, and a
 * {@code compressed_vector} mapping in a k-NN index is refused with a 400 naming {@code index.compress}.
 * The zip has no native libraries (faiss, and Lucene's {@code sq} encoder, end the node on first
 * use), so the k-NN index uses the Lucene engine with float32 vectors.
 */
public class KnnCoexistenceOnRealNodeIT {

    private static final int DIMS = 32;
    private static final int DOCS = 60;
    private static final int K = 5;
    private static final int TRUNCATE_TO = 8;

    private static RealNode node;
    private static float[][] vectors;

    @BeforeClass
    public static void startNode() throws Exception {
        node = RealNode.withPluginsBefore("knn-coexist", List.of(RealNode.pluginZip("realnode.knn.zip")), "1g");
        node.start();
        Random random = new Random(11);
        vectors = new float[DOCS][];
        for (int i = 0; i < DOCS; i++) {
            vectors[i] = randomVector(random, DIMS);
        }
    }

    @AfterClass
    public static void stopNode() throws Exception {
        if (node != null) {
            node.close();
        }
    }

    private static float[] randomVector(Random random, int dims) {
        float[] v = new float[dims];
        for (int i = 0; i < dims; i++) {
            v[i] = (float) random.nextGaussian();
        }
        return v;
    }

    private static String call(String method, String path, String body) throws Exception {
        Request request = new Request(method, path);
        if (body != null) {
            request.setJsonEntity(body);
        }
        Response response = node.client().performRequest(request);
        return new String(response.getEntity().getContent().readAllBytes(), StandardCharsets.UTF_8);
    }

    private static void bulk(String index, String pipeline, String field, float[][] docs) throws Exception {
        StringBuilder bulk = new StringBuilder();
        for (int i = 0; i < docs.length; i++) {
            bulk.append("{\"index\":{\"_id\":\"")
                    .append(i)
                    .append("\"}}\n{\"")
                    .append(field)
                    .append("\":")
                    .append(Arrays.toString(docs[i]))
                    .append("}\n");
        }
        String result = call(
                "POST",
                "/" + index + "/_bulk?refresh=true" + (pipeline == null ? "" : "&pipeline=" + pipeline),
                bulk.toString());
        assertTrue(result, result.contains("\"errors\":false"));
        assertEquals(
                index + " holds every document",
                "{\"count\":" + docs.length,
                call("GET", "/" + index + "/_count?filter_path=count", null).replace("}", ""));
    }

    @SuppressWarnings("unchecked")
    private static List<String> searchIds(String index, String query) throws Exception {
        Map<String, Object> response = node.call(
                "POST", "/" + index + "/_search", "{\"size\":" + K + ",\"_source\":false,\"query\":" + query + "}");
        List<String> ids = new ArrayList<>();
        for (Object hit : (List<Object>) ((Map<String, Object>) response.get("hits")).get("hits")) {
            ids.add((String) ((Map<String, Object>) hit).get("_id"));
        }
        return ids;
    }

    private static double cosine(float[] a, float[] b, int dims) {
        double dot = 0, na = 0, nb = 0;
        for (int i = 0; i < dims; i++) {
            dot += a[i] * b[i];
            na += a[i] * a[i];
            nb += b[i] * b[i];
        }
        return dot / Math.sqrt(na * nb);
    }

    /** The ids of the K documents most cosine-similar to q over the first {@code dims} values, best first. */
    private static List<String> exactTopK(float[] q, int dims) {
        return IntStream.range(0, DOCS)
                .boxed()
                .sorted(Comparator.comparingDouble((Integer i) -> -cosine(q, vectors[i], dims)))
                .limit(K)
                .map(String::valueOf)
                .toList();
    }

    /** A query near document {@code doc}, so the answer is not a tie. */
    private static float[] queryNear(int doc, long seed) {
        float[] noise = randomVector(new Random(seed), DIMS);
        float[] q = vectors[doc].clone();
        for (int i = 0; i < DIMS; i++) {
            q[i] += 0.1f * noise[i];
        }
        return q;
    }

    @Test
    public void bothPluginsAreInstalled() throws Exception {
        String plugins = call("GET", "/_cat/plugins?h=component", null);
        assertTrue(plugins, plugins.contains("opensearch-knn"));
        assertTrue(plugins, plugins.contains("embedding-compress"));
    }

    @Test
    public void knnIndexWithLuceneEngineAnswersKnnQueries() throws Exception {
        call(
                "PUT",
                "/knn-lucene",
                "{\"settings\":{\"number_of_shards\":1,\"number_of_replicas\":0,\"index.knn\":true},\"mappings\":{\"properties\":{"
                        + "\"v\":{\"type\":\"knn_vector\",\"dimension\":" + DIMS
                        + ",\"method\":{\"name\":\"hnsw\",\"engine\":\"lucene\",\"space_type\":\"cosinesimil\"}}}}}");
        bulk("knn-lucene", null, "v", vectors);
        for (int doc : new int[] {3, 17, 42}) {
            float[] q = queryNear(doc, doc);
            List<String> expected = exactTopK(q, DIMS);
            assertEquals(String.valueOf(doc), expected.get(0));
            String knn = "{\"knn\":{\"v\":{\"vector\":" + Arrays.toString(q) + ",\"k\":" + K
                    + ",\"method_parameters\":{\"ef_search\":" + DOCS + "}}}}";
            assertEquals(expected, searchIds("knn-lucene", knn));
        }
    }

    @Test
    public void ourIndexAnswersCompressedKnnBesideKnn() throws Exception {
        call(
                "PUT",
                "/ours",
                "{\"settings\":{\"number_of_shards\":1,\"number_of_replicas\":0,\"index.compress\":true},\"mappings\":{\"properties\":{"
                        + "\"floats\":{\"type\":\"compressed_vector\",\"dimension\":" + DIMS
                        + ",\"encoding\":\"float\"},"
                        + "\"bits\":{\"type\":\"compressed_vector\",\"dimension\":" + DIMS
                        + ",\"encoding\":\"binary\"}}}}");
        StringBuilder bulk = new StringBuilder();
        for (int i = 0; i < DOCS; i++) {
            String v = Arrays.toString(vectors[i]);
            bulk.append("{\"index\":{\"_id\":\"")
                    .append(i)
                    .append("\"}}\n{\"floats\":")
                    .append(v)
                    .append(",\"bits\":")
                    .append(v)
                    .append("}\n");
        }
        String result = call("POST", "/ours/_bulk?refresh=true", bulk.toString());
        assertTrue(result, result.contains("\"errors\":false"));
        for (int doc : new int[] {5, 29}) {
            float[] q = queryNear(doc, 100 + doc);
            List<String> expected = exactTopK(q, DIMS);
            for (String field : List.of("floats", "bits")) {
                // a beam of every document: the float field's graph search and the binary field's
                // rescoring against stored floats are then both exact
                String query = "{\"compressed_knn\":{\"field\":\"" + field + "\",\"k\":" + K + ",\"num_candidates\":"
                        + DOCS + ",\"vector\":" + Arrays.toString(q) + "}}";
                assertEquals(field, expected, searchIds("ours", query));
            }
        }
    }

    @Test
    public void reindexFromKnnVectorIntoCompressedVectorThroughCompressPipeline() throws Exception {
        call(
                "PUT",
                "/knn-source",
                "{\"settings\":{\"number_of_shards\":1,\"number_of_replicas\":0,\"index.knn\":true},\"mappings\":{\"properties\":{"
                        + "\"v\":{\"type\":\"knn_vector\",\"dimension\":" + DIMS
                        + ",\"method\":{\"name\":\"hnsw\",\"engine\":\"lucene\",\"space_type\":\"cosinesimil\"}}}}}");
        bulk("knn-source", null, "v", vectors);
        call(
                "PUT",
                "/_ingest/pipeline/knn-to-compressed",
                "{\"processors\":["
                        + "{\"compress\":{\"field\":\"v\",\"target_field\":\"v_small\",\"truncate_to\":" + TRUNCATE_TO
                        + "}},"
                        + "{\"remove\":{\"field\":\"v\"}}]}");
        call(
                "PUT",
                "/compressed-from-knn",
                "{\"settings\":{\"number_of_shards\":1,\"number_of_replicas\":0,\"index.compress\":true},\"mappings\":{\"properties\":{"
                        + "\"v_small\":{\"type\":\"compressed_vector\",\"dimension\":" + TRUNCATE_TO
                        + ",\"encoding\":\"float\"}}}}");

        String reindexed = call(
                "POST",
                "/_reindex?refresh=true",
                "{\"source\":{\"index\":\"knn-source\"},\"dest\":{\"index\":\"compressed-from-knn\",\"pipeline\":\"knn-to-compressed\"}}");
        assertTrue(reindexed, reindexed.contains("\"created\":" + DOCS));
        assertTrue(reindexed, reindexed.contains("\"failures\":[]"));

        @SuppressWarnings("unchecked")
        Map<String, Object> source = (Map<String, Object>)
                node.call("GET", "/compressed-from-knn/_doc/7", null).get("_source");
        assertEquals("only the truncated vector is left: " + source, List.of("v_small"), List.copyOf(source.keySet()));
        List<?> small = (List<?>) source.get("v_small");
        assertEquals(TRUNCATE_TO, small.size());
        // the prefix, L2-normalised: unit length, same direction as the original's first TRUNCATE_TO values
        float[] truncated = new float[TRUNCATE_TO];
        double norm = 0;
        for (int i = 0; i < TRUNCATE_TO; i++) {
            truncated[i] = ((Number) small.get(i)).floatValue();
            norm += truncated[i] * truncated[i];
        }
        assertEquals(1.0, norm, 1e-5);
        assertEquals(1.0, cosine(truncated, vectors[7], TRUNCATE_TO), 1e-5);

        for (int doc : new int[] {7, 33}) {
            float[] q = Arrays.copyOf(queryNear(doc, 200 + doc), TRUNCATE_TO);
            List<String> expected = exactTopK(q, TRUNCATE_TO);
            String query = "{\"compressed_knn\":{\"field\":\"v_small\",\"k\":" + K + ",\"num_candidates\":" + DOCS
                    + ",\"vector\":" + Arrays.toString(q) + "}}";
            assertEquals(expected, searchIds("compressed-from-knn", query));
        }
    }

    /**
     * Each plugin's codec writes the segments of its own indexes only: the k-NN index's segments name
     * k-NN's codec, ours name Lucene's codec with our vector formats per field, and the segments are
     * read while the node runs (after a flush, from its data directory).
     */
    @Test
    public void eachPluginsCodecWritesItsOwnIndexOnly() throws Exception {
        call(
                "PUT",
                "/knn-codec",
                "{\"settings\":{\"number_of_shards\":1,\"number_of_replicas\":0,\"index.knn\":true},\"mappings\":{\"properties\":{"
                        + "\"v\":{\"type\":\"knn_vector\",\"dimension\":" + DIMS
                        + ",\"method\":{\"name\":\"hnsw\",\"engine\":\"lucene\",\"space_type\":\"l2\"}}}}}");
        bulk("knn-codec", null, "v", Arrays.copyOf(vectors, 10));
        call(
                "PUT",
                "/ours-codec",
                "{\"settings\":{\"number_of_shards\":1,\"number_of_replicas\":0,\"index.compress\":true},\"mappings\":{\"properties\":{"
                        + "\"c\":{\"type\":\"compressed_vector\",\"dimension\":" + DIMS
                        + ",\"encoding\":\"binary\"}}}}");
        bulk("ours-codec", null, "c", Arrays.copyOf(vectors, 10));

        String knnCommit = ShardFiles.lastCommit(ShardFiles.shardDirectory(node, "knn-codec"));
        assertTrue("k-NN's codec wrote the k-NN index", knnCommit.contains("KNN") && knnCommit.contains("Codec"));

        Path ours = ShardFiles.shardDirectory(node, "ours-codec");
        assertFalse(
                "k-NN's codec did not write ours", ShardFiles.lastCommit(ours).contains("KNN"));
        try (Directory dir = FSDirectory.open(ours);
                DirectoryReader reader = DirectoryReader.open(dir)) {
            assertFalse(reader.leaves().isEmpty());
            for (LeafReaderContext leaf : reader.leaves()) {
                FieldInfo field = leaf.reader().getFieldInfos().fieldInfo("c");
                String format = field.getAttribute(PerFieldKnnVectorsFormat.PER_FIELD_FORMAT_KEY);
                assertTrue(
                        "our vector format wrote field [c], not " + format,
                        format != null && format.startsWith("Compress"));
            }
        }
    }

    @Test
    public void plainIndexWithNeitherSettingCreatesAndIndexes() throws Exception {
        call(
                "PUT",
                "/plain",
                "{\"settings\":{\"number_of_shards\":1,\"number_of_replicas\":0},\"mappings\":{\"properties\":{"
                        + "\"title\":{\"type\":\"text\"},\"n\":{\"type\":\"integer\"},\"floats\":{\"type\":\"float\"}}}}");
        String result = call(
                "POST",
                "/plain/_bulk?refresh=true",
                "{\"index\":{\"_id\":\"1\"}}\n{\"title\":\"red fox\",\"n\":1,\"floats\":[0.5,1.5]}\n"
                        + "{\"index\":{\"_id\":\"2\"}}\n{\"title\":\"blue whale\",\"n\":2,\"floats\":[2.5]}\n");
        assertTrue(result, result.contains("\"errors\":false"));
        call("POST", "/plain/_flush", null);
        assertEquals(List.of("2"), searchIds("plain", "{\"match\":{\"title\":\"whale\"}}"));
        String segments = call("GET", "/_cat/segments/plain?h=docs.count", null);
        assertEquals(segments, "2", segments.trim());
    }

    @Test
    public void compressedVectorInAKnnIndexWithoutIndexCompressIsA400() throws Exception {
        try {
            call(
                    "PUT",
                    "/knn-with-ours",
                    "{\"settings\":{\"index.knn\":true},\"mappings\":{\"properties\":{"
                            + "\"c\":{\"type\":\"compressed_vector\",\"dimension\":8,\"encoding\":\"float\"}}}}");
            fail("a compressed_vector mapping without index.compress was accepted");
        } catch (ResponseException e) {
            String body = new String(e.getResponse().getEntity().getContent().readAllBytes(), StandardCharsets.UTF_8);
            assertEquals(body, 400, e.getResponse().getStatusLine().getStatusCode());
            assertTrue(body, body.contains("index.compress"));
            assertTrue(body, body.contains("compressed_vector"));
        }
        String exists = call("GET", "/_cat/indices/knn-with-*?h=index", null);
        assertEquals("", exists.trim());
    }

    /**
     * One index cannot set both settings: each hands the index's codec to a different plugin, and
     * OpenSearch refuses to create an index that two plugins claim. Nothing is left behind.
     */
    @Test
    public void anIndexWithBothSettingsIsRefused() throws Exception {
        try {
            call("PUT", "/knn-and-compress", "{\"settings\":{\"index.knn\":true,\"index.compress\":true}}");
            fail("an index with both index.knn and index.compress was created");
        } catch (ResponseException e) {
            String body = new String(e.getResponse().getEntity().getContent().readAllBytes(), StandardCharsets.UTF_8);
            assertEquals(body, 400, e.getResponse().getStatusLine().getStatusCode());
            assertTrue(body, body.contains("cannot have both [index.compress] and [index.knn]"));
        }
        assertEquals("", call("GET", "/_cat/indices/knn-and-*?h=index", null).trim());
        assertTrue(call("GET", "/_cluster/health", null).matches(".*\"status\":\"(green|yellow)\".*"));
    }
}
