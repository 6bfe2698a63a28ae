package dev.compress.plugin.query;

import static org.opensearch.test.hamcrest.OpenSearchAssertions.assertNoFailures;

import dev.compress.plugin.CompressClusterTestCase;
import dev.compress.plugin.query.mask.MaskSpec;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.lucene.search.Explanation;
import org.opensearch.action.bulk.BulkRequestBuilder;
import org.opensearch.action.support.WriteRequest;
import org.opensearch.common.settings.Settings;
import org.opensearch.index.query.QueryBuilder;
import org.opensearch.search.SearchHit;
import org.opensearch.test.OpenSearchIntegTestCase;

/**
 * {@code explain} on {@code compressed_knn} hits says how each score was made: the similarity and its
 * score formula, exact float similarity or code estimate, rescored or not, masked or not (which
 * dimensions), and which search selected the hit; the measure it reports (distance, inner product)
 * is checked against the value computed here from the vectors.
 */
@OpenSearchIntegTestCase.ClusterScope(scope = OpenSearchIntegTestCase.Scope.SUITE, numDataNodes = 1, numClientNodes = 0)
public class CompressedKnnExplainTests extends CompressClusterTestCase {

    private static final int DIM = 16;
    private static final int DOCS = 60;

    private float[][] docs;

    private void createAndIndex(Random random) {
        client().admin()
                .indices()
                .prepareCreate("expl")
                .setSettings(Settings.builder()
                        .put("index.number_of_shards", 2)
                        .put("index.number_of_replicas", 0)
                        .put("index.compress", true))
                .setMapping("{\"properties\":{"
                        + "\"f_l2\":{\"type\":\"compressed_vector\",\"dimension\":16,\"similarity\":\"l2\"},"
                        + "\"b_ip\":{\"type\":\"compressed_vector\",\"dimension\":16,\"encoding\":\"binary\","
                        + "\"similarity\":\"inner_product\"},"
                        + "\"c_cos\":{\"type\":\"compressed_vector\",\"dimension\":16,\"encoding\":\"binary\","
                        + "\"rescore_vectors\":false}}}")
                .get();
        docs = gaussian(random, DOCS, DIM);
        BulkRequestBuilder bulk = client().prepareBulk().setRefreshPolicy(WriteRequest.RefreshPolicy.IMMEDIATE);
        for (int i = 0; i < DOCS; i++) {
            bulk.add(client().prepareIndex("expl")
                    .setId(Integer.toString(i))
                    .setSource(Map.of("f_l2", docs[i], "b_ip", docs[i], "c_cos", docs[i])));
        }
        assertNoFailures(bulk.get());
    }

    private SearchHit[] explained(QueryBuilder query) {
        SearchHit[] hits = client().prepareSearch("expl")
                .setQuery(query)
                .setExplain(true)
                .setSize(5)
                .get()
                .getHits()
                .getHits();
        assertTrue(hits.length > 0);
        for (SearchHit hit : hits) {
            assertTrue(hit.getExplanation().isMatch());
            assertEquals(hit.getScore(), hit.getExplanation().getValue().floatValue(), 1e-6f * hit.getScore());
        }
        return hits;
    }

    private static CompressedKnnQueryBuilder.Builder knn(String field, float[] q) {
        return CompressedKnnQueryBuilder.builder().field(field).vector(q).k(5);
    }

    private float[] doc(SearchHit hit) {
        return docs[Integer.parseInt(hit.getId())];
    }

    private static void assertDescribes(Explanation e, String... parts) {
        for (String part : parts) {
            assertTrue(e.toString(), e.getDescription().contains(part));
        }
    }

    public void testExactRescoredEstimatedAndMaskedScoresAreExplained() {
        Random random = new Random(randomLong());
        createAndIndex(random);
        float[] q = gaussian(random, 1, DIM)[0];

        for (SearchHit hit : explained(knn("f_l2", q).build())) {
            Explanation e = hit.getExplanation();
            assertDescribes(
                    e,
                    "compressed_knn on [f_l2], similarity [l2]: score = 1 / (1 + l2_distance^2)",
                    "exact float similarity of the query and the document's float vector");
            Explanation distance = e.getDetails()[0];
            assertEquals("l2 distance", distance.getDescription());
            assertEquals(
                    Math.sqrt(ExactScores.squaredDistance(q, doc(hit))),
                    distance.getValue().doubleValue(),
                    1e-3);
            assertEquals("no mask: all 16 dimensions count", e.getDetails()[1].getDescription());
            assertEquals("selected by the top k=5 of the graph search", e.getDetails()[2].getDescription());
        }

        for (SearchHit hit : explained(knn("b_ip", q).build())) {
            Explanation e = hit.getExplanation();
            assertDescribes(
                    e, "similarity [inner_product]", "rescored with the stored float vector: exact float similarity");
            assertEquals("inner product", e.getDetails()[0].getDescription());
            assertEquals(
                    ExactScores.dot(q, doc(hit)), e.getDetails()[0].getValue().doubleValue(), 1e-3);
        }

        for (SearchHit hit :
                explained(knn("b_ip", q).rescore(RescoreOptions.DISABLED).build())) {
            Explanation e = hit.getExplanation();
            assertDescribes(
                    e, "binary code estimate: the query quantised to 4 bits against the sign code, not rescored");
            assertEquals("inner product (estimated)", e.getDetails()[0].getDescription());
        }

        for (SearchHit hit : explained(knn("c_cos", q).build())) {
            assertDescribes(
                    hit.getExplanation(),
                    "similarity [cosine]: score = (1 + cosine) / 2",
                    "binary code estimate: rescored with the float query against the sign code, as the field keeps"
                            + " no float vectors");
        }

        int[] kept = {1, 4, 7};
        float[] masked = new float[DIM];
        for (int j : kept) {
            masked[j] = q[j];
        }
        for (SearchHit hit :
                explained(knn("f_l2", q).mask(MaskSpec.explicit(kept)).build())) {
            Explanation e = hit.getExplanation();
            assertEquals("l2 distance with the masked query", e.getDetails()[0].getDescription());
            assertEquals(
                    Math.sqrt(ExactScores.squaredDistance(masked, doc(hit))),
                    e.getDetails()[0].getValue().doubleValue(),
                    1e-3);
            assertEquals(
                    "mask applied: 3 of 16 dimensions count, [1, 4, 7]; the query is zero in the others",
                    e.getDetails()[1].getDescription());
        }
    }

    public void testRadialAndBoostedScoresAreExplained() throws Exception {
        Random random = new Random(randomLong());
        createAndIndex(random);
        float[] q = gaussian(random, 1, DIM)[0];
        for (SearchHit hit : explained(CompressedKnnQueryBuilder.builder()
                .field("b_ip")
                .vector(q)
                .minScore(1.5f)
                .build())) {
            Explanation e = hit.getExplanation();
            assertDescribes(
                    e,
                    "exact float similarity of the query and the float vector stored beside the sign code (every"
                            + " document scored, no code estimate)");
            assertEquals(
                    "selected by radial search: every document with score >= 1.5", e.getDetails()[2].getDescription());
        }
        for (SearchHit hit : explained(knn("f_l2", q).build().boost(2f))) {
            Explanation e = hit.getExplanation();
            assertDescribes(e, "score = 2.0 * 1 / (1 + l2_distance^2)");
            // the measure is that of the unboosted score
            assertEquals(
                    Math.sqrt(ExactScores.squaredDistance(q, doc(hit))),
                    e.getDetails()[0].getValue().doubleValue(),
                    1e-3);
        }
        // the _explain API on a document outside the radius says what it was not selected by
        String far = ExactScores.ranked("l2", docs, q, i -> true).get(DOCS - 1).id();
        Map<String, Object> answer = restCall(
                "POST",
                "/expl/_explain/" + far,
                "{\"query\":{\"compressed_knn\":{\"field\":\"f_l2\",\"vector\":" + Arrays.toString(q)
                        + ",\"max_distance\":0.01}}}");
        assertEquals(Boolean.FALSE, answer.get("matched"));
        @SuppressWarnings("unchecked")
        Map<String, Object> explanation = (Map<String, Object>) answer.get("explanation");
        assertTrue(
                String.valueOf(explanation),
                String.valueOf(explanation.get("description"))
                        .startsWith("compressed_knn on [f_l2]: not selected by radial search: every document with l2"
                                + " distance <= 0.01"));
    }

    /** A document the query did not select is explained with the search, and with the filter when that excluded it. */
    @SuppressWarnings("unchecked")
    public void testDocumentsNotSelectedSayWhy() throws Exception {
        Random random = new Random(randomLong());
        createAndIndex(random);
        float[] q = gaussian(random, 1, DIM)[0];
        String far = ExactScores.ranked("l2", docs, q, i -> true).get(DOCS - 1).id();
        String near = ExactScores.ranked("l2", docs, q, i -> true).get(0).id();
        String knn = "\"compressed_knn\":{\"field\":\"f_l2\",\"vector\":" + Arrays.toString(q) + ",\"k\":1";

        Map<String, Object> outside = restCall("POST", "/expl/_explain/" + far, "{\"query\":{" + knn + "}}}");
        assertEquals(Boolean.FALSE, outside.get("matched"));
        Map<String, Object> explanation = (Map<String, Object>) outside.get("explanation");
        assertTrue(
                String.valueOf(explanation),
                String.valueOf(explanation.get("description"))
                        .startsWith("compressed_knn on [f_l2]: not selected by "));
        assertFalse(
                String.valueOf(explanation),
                String.valueOf(explanation.get("description")).contains("filter"));
        for (Map<String, Object> detail : (List<Map<String, Object>>) explanation.get("details")) {
            assertFalse(
                    String.valueOf(explanation),
                    String.valueOf(detail.get("description")).isEmpty());
        }

        Map<String, Object> filteredOut = restCall(
                "POST",
                "/expl/_explain/" + near,
                "{\"query\":{" + knn + ",\"filter\":{\"ids\":{\"values\":[\"" + far + "\"]}}}}}");
        assertEquals(Boolean.FALSE, filteredOut.get("matched"));
        explanation = (Map<String, Object>) filteredOut.get("explanation");
        assertTrue(
                String.valueOf(explanation),
                String.valueOf(explanation.get("description")).endsWith("; the filter excludes it"));
        List<Map<String, Object>> details = (List<Map<String, Object>>) explanation.get("details");
        assertEquals(String.valueOf(explanation), 1, details.size());
        assertFalse(
                String.valueOf(explanation),
                String.valueOf(details.get(0).get("description")).isEmpty());
    }
}
