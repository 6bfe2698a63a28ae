package dev.compress.plugin.query;

import static org.opensearch.test.hamcrest.OpenSearchAssertions.assertNoFailures;

import dev.compress.plugin.CompressClusterTestCase;
import dev.compress.plugin.query.mask.MaskSpec;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.opensearch.action.bulk.BulkRequestBuilder;
import org.opensearch.action.search.SearchResponse;
import org.opensearch.action.support.WriteRequest;
import org.opensearch.common.settings.Settings;
import org.opensearch.index.query.QueryBuilders;
import org.opensearch.test.OpenSearchIntegTestCase;

/**
 * Radial {@code compressed_knn} ({@code min_score}, {@code max_distance}) on two data nodes and two
 * shards of several segments: every document within the threshold and no other, with its exact
 * score, against brute force computed here; on float fields and on binary fields with stored floats,
 * with deletes, a filter and a mask. Thresholds lie halfway between two documents' scores, so the
 * expected set does not depend on rounding.
 */
@OpenSearchIntegTestCase.ClusterScope(scope = OpenSearchIntegTestCase.Scope.SUITE, numDataNodes = 2, numClientNodes = 0)
public class CompressedKnnRadialTests extends CompressClusterTestCase {

    private static final int DIM = 32;
    private static final int DOCS = 200;

    /** Field name to similarity: float fields [f_*], binary fields with stored floats [b_*]. */
    private static final Map<String, String> FIELDS = Map.of(
            "f_l2", "l2",
            "f_inner_product", "inner_product",
            "f_cosine", "cosine",
            "b_l2", "l2",
            "b_cosine", "cosine");

    private float[][] docs;
    private final Set<Integer> deleted = new HashSet<>();

    private void createAndIndex(Random random) {
        StringBuilder mapping = new StringBuilder("{\"properties\":{\"tag\":{\"type\":\"integer\"},"
                + "\"codes\":{\"type\":\"compressed_vector\",\"dimension\":" + DIM
                + ",\"encoding\":\"binary\",\"rescore_vectors\":false}");
        FIELDS.forEach((field, sim) -> mapping.append(",\"")
                .append(field)
                .append("\":{\"type\":\"compressed_vector\",\"dimension\":" + DIM + ",\"similarity\":\"")
                .append(sim)
                .append(field.startsWith("b_") ? "\",\"encoding\":\"binary\"}" : "\"}"));
        client().admin()
                .indices()
                .prepareCreate("radial")
                .setSettings(Settings.builder()
                        .put("index.number_of_shards", 2)
                        .put("index.number_of_replicas", 0)
                        .put("index.compress", true)
                        .put("index.refresh_interval", -1))
                .setMapping(mapping.append("}}").toString())
                .get();
        docs = new float[DOCS][];
        float[][] directions = gaussian(random, DOCS, DIM);
        for (int i = 0; i < DOCS; i++) {
            docs[i] = ExactScores.scaled(directions[i], (float) (0.05 + 0.3 * random.nextDouble()));
        }
        for (int batch = 0; batch < 3; batch++) {
            BulkRequestBuilder bulk = client().prepareBulk();
            for (int i = batch; i < DOCS; i += 3) {
                Map<String, Object> source = new HashMap<>();
                source.put("tag", i % 3);
                source.put("codes", docs[i]);
                for (String field : FIELDS.keySet()) {
                    source.put(field, docs[i]);
                }
                bulk.add(client().prepareIndex("radial")
                        .setId(Integer.toString(i))
                        .setSource(source));
            }
            assertNoFailures(bulk.get());
            client().admin().indices().prepareRefresh("radial").get();
        }
        for (int i = 0; i < 6; i++) {
            int doc = random.nextInt(DOCS);
            client().prepareDelete("radial", Integer.toString(doc))
                    .setRefreshPolicy(WriteRequest.RefreshPolicy.IMMEDIATE)
                    .get();
            deleted.add(doc);
        }
    }

    /** Hits and total hits of a radial search; {@code size} covers every document. */
    private List<Hit> search(CompressedKnnQueryBuilder query) {
        SearchResponse response =
                client().prepareSearch("radial").setQuery(query).setSize(DOCS).get();
        List<Hit> hits = Hit.of(response);
        assertEquals(hits.size(), response.getHits().getTotalHits().value());
        return hits;
    }

    private static CompressedKnnQueryBuilder.Builder radial(String field, float[] q) {
        return CompressedKnnQueryBuilder.builder().field(field).vector(q);
    }

    /**
     * The first {@code n} or more of {@code ranked} (extended past near ties) and the score halfway
     * between the last of them and the next.
     */
    private record Cut(List<Hit> within, float threshold) {
        static Cut after(List<Hit> ranked, int n) {
            while (n < ranked.size() - 1
                    && ranked.get(n - 1).score() - ranked.get(n).score()
                            < 1e-4 * ranked.get(n - 1).score()) {
                n++;
            }
            return new Cut(
                    ranked.subList(0, n),
                    (ranked.get(n - 1).score() + ranked.get(n).score()) / 2);
        }
    }

    private static void assertExact(List<Hit> expected, List<Hit> actual) {
        float largest = (float) expected.stream().mapToDouble(Hit::score).max().orElse(1);
        Hit.assertSameHits(expected, actual, 1e-5f * Math.max(1f, largest));
    }

    public void testMinScoreReturnsEveryDocumentAboveIt() {
        Random random = new Random(randomLong());
        createAndIndex(random);
        for (int round = 0; round < 3; round++) {
            float[] q = ExactScores.scaled(gaussian(random, 1, DIM)[0], 0.1f);
            for (Map.Entry<String, String> field : FIELDS.entrySet()) {
                List<Hit> ranked = ExactScores.ranked(field.getValue(), docs, q, i -> deleted.contains(i) == false);
                // more than a k-NN search would return by default, and never a fixed count
                Cut cut = Cut.after(ranked, 5 + random.nextInt(60));
                assertExact(
                        cut.within(),
                        search(radial(field.getKey(), q)
                                .minScore(cut.threshold())
                                .build()));
            }
        }
    }

    /** {@code max_distance d} is {@code min_score 1 / (1 + d^2)}: the documents within distance d. */
    public void testMaxDistanceReturnsEveryDocumentWithinIt() {
        Random random = new Random(randomLong());
        createAndIndex(random);
        for (int round = 0; round < 3; round++) {
            float[] q = ExactScores.scaled(gaussian(random, 1, DIM)[0], 0.1f);
            List<Hit> ranked = ExactScores.ranked("l2", docs, q, i -> deleted.contains(i) == false);
            Cut cut = Cut.after(ranked, 1 + random.nextInt(40));
            int n = cut.within().size();
            float inside = (float) Math.sqrt(1 / cut.within().get(n - 1).score() - 1);
            float outside = (float) Math.sqrt(1 / ranked.get(n).score() - 1);
            float maxDistance = (inside + outside) / 2;
            for (String field : List.of("f_l2", "b_l2")) {
                assertExact(
                        cut.within(),
                        search(radial(field, q).maxDistance(maxDistance).build()));
            }
        }
        // nothing lies within distance 0 of a point no document sits on
        assertEquals(
                List.of(), search(radial("f_l2", new float[DIM]).maxDistance(0f).build()));
    }

    /** A filter and a mask narrow the radial search as they narrow brute force. */
    public void testFilterAndMask() {
        Random random = new Random(randomLong());
        createAndIndex(random);
        float[] q = ExactScores.scaled(gaussian(random, 1, DIM)[0], 0.1f);
        int[] kept = {0, 3, 4, 9, 17, 30};
        float[] masked = new float[DIM];
        for (int j : kept) {
            masked[j] = q[j];
        }
        for (String field : List.of("f_l2", "b_cosine", "f_inner_product")) {
            String sim = FIELDS.get(field);
            Cut filtered =
                    Cut.after(ExactScores.ranked(sim, docs, q, i -> i % 3 == 1 && deleted.contains(i) == false), 12);
            assertExact(
                    filtered.within(),
                    search(radial(field, q)
                            .minScore(filtered.threshold())
                            .filter(QueryBuilders.termQuery("tag", 1))
                            .build()));
            Cut maskedCut = Cut.after(ExactScores.ranked(sim, docs, masked, i -> deleted.contains(i) == false), 20);
            assertExact(
                    maskedCut.within(),
                    search(radial(field, q)
                            .minScore(maskedCut.threshold())
                            .mask(MaskSpec.explicit(kept))
                            .build()));
        }
    }

    private String badRequest(String body) throws Exception {
        return restError(400, "POST", "/radial/_search", "{\"query\":{\"compressed_knn\":" + body + "}}");
    }

    public void testBadRadialSearchesAre400sNamingTheParameter() throws Exception {
        createAndIndex(new Random(7));
        float[] ones = new float[DIM];
        Arrays.fill(ones, 1f);
        String q = "\"vector\":" + Arrays.toString(ones).replace(" ", "");
        List<String[]> cases = new ArrayList<>();
        cases.add(new String[] {
            "{\"field\":\"f_cosine\"," + q + ",\"max_distance\":0.5}",
            "[compressed_knn] [max_distance] applies to fields with similarity [l2], but field [f_cosine] uses"
                    + " [cosine]: use [min_score]"
        });
        cases.add(new String[] {
            "{\"field\":\"codes\"," + q + ",\"min_score\":0.5}",
            "[compressed_knn] [min_score] needs the float vectors of field [codes], which has [encoding: binary]"
                    + " with [rescore_vectors: false]; search it with [k]"
        });
        cases.add(new String[] {
            "{\"field\":\"f_l2\"," + q + ",\"k\":5,\"max_distance\":0.5}",
            "takes exactly one of [k], [min_score] and [max_distance], got [k=5] and [max_distance=0.5]"
        });
        cases.add(new String[] {
            "{\"field\":\"f_l2\"," + q + ",\"min_score\":-1}", "[min_score] must be a finite number > 0, got [-1.0]"
        });
        cases.add(new String[] {
            "{\"field\":\"f_l2\"," + q + ",\"max_distance\":0.5,\"num_candidates\":50}",
            "[num_candidates] applies to [k] searches only, not to [max_distance]"
        });
        cases.add(new String[] {
            "{\"field\":\"f_l2\"," + q + "}", "takes exactly one of [k], [min_score] and [max_distance]"
        });
        for (String[] c : cases) {
            String error = badRequest(c[0]);
            assertTrue(c[0] + " -> " + error, error.contains(c[1]));
        }
    }
}
