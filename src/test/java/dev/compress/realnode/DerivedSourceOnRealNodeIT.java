package dev.compress.realnode;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import dev.compress.harness.RealNode;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * Vectors out of {@code _source} on the real node: with {@code index.compress.derived_source} (the
 * default) an index takes less disk per document than the same index storing its vectors in {@code
 * _source}, with OpenSearch's default codec and with {@code lucene_default} alike, and GET, {@code _reindex} and {@code _update_by_query} (modules of the distribution) see
 * the vectors as sent, also after a restart reopens the segments through the codec found by name.
 */
public class DerivedSourceOnRealNodeIT {

    private static final int DIMS = 128;
    private static final int DOCS = 400;
    private static RealNode node;

    @BeforeClass
    public static void startNode() throws Exception {
        node = RealNode.shared();
    }

    private static String mapping(boolean derived) {
        return mapping(derived, "default");
    }

    private static String mapping(boolean derived, String codec) {
        return "{\"settings\":{\"number_of_shards\":1,\"number_of_replicas\":0,\"index.compress\":true,"
                + "\"index.codec\":\"" + codec + "\","
                + "\"index.compress.derived_source\":" + derived + "},\"mappings\":{\"properties\":{"
                + "\"floats\":{\"type\":\"compressed_vector\",\"dimension\":" + DIMS + "},"
                + "\"bits\":{\"type\":\"compressed_vector\",\"dimension\":" + DIMS + ",\"encoding\":\"binary\"},"
                + "\"title\":{\"type\":\"keyword\"}}}}";
    }

    @Test
    public void vectorsAreStoredOnceAndReadBackEverywhere() throws Exception {
        Random random = new Random(7);
        float[][] floats = new float[DOCS][];
        float[][] bits = new float[DOCS][];
        node.call("PUT", "/derived", mapping(true));
        node.call("PUT", "/stored", mapping(false));
        // Lucene's own default codec has Lucene's stored fields too (the test framework's random default codec
        // stands in for it in the cluster tests, which is why this is checked here)
        node.call("PUT", "/lucene", mapping(true, "lucene_default"));
        StringBuilder bulk = new StringBuilder();
        for (int i = 0; i < DOCS; i++) {
            floats[i] = vector(random);
            bits[i] = vector(random);
            String doc = "{\"title\":\"t" + i + "\",\"floats\":" + json(floats[i]) + ",\"bits\":" + json(bits[i]) + "}";
            for (String index : List.of("derived", "stored", "lucene")) {
                bulk.append("{\"index\":{\"_index\":\"")
                        .append(index)
                        .append("\",\"_id\":\"")
                        .append(i)
                        .append("\"}}\n");
                bulk.append(doc).append('\n');
            }
        }
        assertEquals(
                Boolean.FALSE,
                node.call("POST", "/_bulk?refresh=true", bulk.toString()).get("errors"));
        for (String index : List.of("derived", "stored", "lucene")) {
            node.call("POST", "/" + index + "/_forcemerge?max_num_segments=1&flush=true", null);
        }
        long derived = storeBytes("derived");
        long stored = storeBytes("stored");
        long lucene = storeBytes("lucene");
        // each document's two vectors as JSON text take about twice what the vector files take
        assertTrue("derived " + derived + " bytes, stored " + stored, derived * 10 < stored * 7);
        assertTrue("lucene_default " + lucene + " bytes, stored " + stored, lucene * 10 < stored * 7);

        assertVectorsAsSent("derived", floats, bits, "t");
        assertVectorsAsSent("lucene", floats, bits, "t");

        node.restart();
        node.call("GET", "/_cluster/health/derived?wait_for_status=green&timeout=60s", null);
        assertVectorsAsSent("derived", floats, bits, "t");

        node.call("PUT", "/copy", mapping(true));
        Map<String, Object> reindexed = node.call(
                "POST", "/_reindex?refresh=true", "{\"source\":{\"index\":\"derived\"},\"dest\":{\"index\":\"copy\"}}");
        assertEquals(reindexed.toString(), DOCS, ((Number) reindexed.get("created")).intValue());
        assertVectorsAsSent("copy", floats, bits, "t");

        Map<String, Object> updated = node.call(
                "POST",
                "/derived/_update_by_query?refresh=true",
                "{\"script\":{\"source\":\"ctx._source.title = 'u' + ctx._source.title\"}}");
        assertEquals(updated.toString(), DOCS, ((Number) updated.get("updated")).intValue());
        assertVectorsAsSent("derived", floats, bits, "ut");

        for (String index : List.of("derived", "stored", "lucene", "copy")) {
            node.call("DELETE", "/" + index, null);
        }
    }

    private static long storeBytes(String index) throws Exception {
        Map<String, Object> stats = node.call("GET", "/" + index + "/_stats/store", null);
        Map<?, ?> total = (Map<?, ?>) ((Map<?, ?>) stats.get("_all")).get("total");
        return ((Number) ((Map<?, ?>) total.get("store")).get("size_in_bytes")).longValue();
    }

    private static void assertVectorsAsSent(String index, float[][] floats, float[][] bits, String titlePrefix)
            throws Exception {
        for (int i = 0; i < DOCS; i += 7) {
            Map<?, ?> source = (Map<?, ?>)
                    node.call("GET", "/" + index + "/_doc/" + i, null).get("_source");
            assertEquals(titlePrefix + i, source.get("title"));
            assertVector(index + "/" + i + " floats", floats[i], source.get("floats"));
            assertVector(index + "/" + i + " bits", bits[i], source.get("bits"));
        }
    }

    private static void assertVector(String what, float[] expected, Object actual) {
        List<?> values = (List<?>) actual;
        assertEquals(what, expected.length, values.size());
        for (int d = 0; d < expected.length; d++) {
            assertEquals(what + "[" + d + "]", expected[d], ((Number) values.get(d)).floatValue(), 0f);
        }
    }

    private static float[] vector(Random random) {
        float[] v = new float[DIMS];
        for (int d = 0; d < DIMS; d++) {
            v[d] = (float) random.nextGaussian();
        }
        return v;
    }

    private static String json(float[] v) {
        StringBuilder sb = new StringBuilder("[");
        for (int d = 0; d < v.length; d++) {
            sb.append(d == 0 ? "" : ",").append(v[d]);
        }
        return sb.append(']').toString();
    }
}
