package dev.compress.plugin.query;

import static org.opensearch.test.hamcrest.OpenSearchAssertions.assertNoFailures;

import dev.compress.plugin.CompressClusterTestCase;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.opensearch.action.bulk.BulkRequestBuilder;
import org.opensearch.common.settings.Settings;
import org.opensearch.index.query.QueryBuilder;
import org.opensearch.index.query.QueryBuilders;
import org.opensearch.test.OpenSearchIntegTestCase;

/**
 * {@code l2} and {@code inner_product} fields on two data nodes and two shards of several segments,
 * against brute force computed here: float fields and rescored binary fields rank by the true
 * similarity with its exact score (before and after a force merge, with a filter), and the codes'
 * unrescored ranking on binary fields still finds true neighbours. Vectors have lengths from 0.2 to
 * 3, so a ranking by direction alone would fail.
 */
@OpenSearchIntegTestCase.ClusterScope(scope = OpenSearchIntegTestCase.Scope.SUITE, numDataNodes = 2, numClientNodes = 0)
public class CompressedKnnSimilarityTests extends CompressClusterTestCase {

    private static final int DIM = 48;
    private static final int DOCS = 200;
    private static final int K = 10;
    private static final List<String> SIMILARITIES = List.of("l2", "inner_product");

    private float[][] docs;

    /** Index [sims]: for each similarity a float field [f_sim] and a binary field with stored floats [b_sim]. */
    private void createAndIndex(Random random) {
        StringBuilder mapping = new StringBuilder("{\"properties\":{\"tag\":{\"type\":\"integer\"}");
        for (String sim : SIMILARITIES) {
            mapping.append(",\"f_")
                    .append(sim)
                    .append("\":{\"type\":\"compressed_vector\",\"dimension\":" + DIM + ",\"similarity\":\"")
                    .append(sim)
                    .append("\"},\"b_")
                    .append(sim)
                    .append("\":{\"type\":\"compressed_vector\",\"dimension\":" + DIM
                            + ",\"encoding\":\"binary\",\"similarity\":\"")
                    .append(sim)
                    .append("\"}");
        }
        client().admin()
                .indices()
                .prepareCreate("sims")
                .setSettings(Settings.builder()
                        .put("index.number_of_shards", 2)
                        .put("index.number_of_replicas", 0)
                        .put("index.compress", true)
                        .put("index.refresh_interval", -1))
                .setMapping(mapping.append("}}").toString())
                .get();
        float[][] directions = gaussian(random, DOCS, DIM);
        docs = new float[DOCS][];
        for (int i = 0; i < DOCS; i++) {
            double norm = Math.sqrt(ExactScores.dot(directions[i], directions[i]));
            docs[i] = ExactScores.scaled(directions[i], (float) ((0.2 + 2.8 * random.nextDouble()) / norm));
        }
        // three refreshes: several segments per shard, whose graphs are built on floats at flush
        for (int batch = 0; batch < 3; batch++) {
            BulkRequestBuilder bulk = client().prepareBulk();
            for (int i = batch; i < DOCS; i += 3) {
                Map<String, Object> source = new HashMap<>();
                source.put("tag", i % 3);
                for (String sim : SIMILARITIES) {
                    source.put("f_" + sim, docs[i]);
                    source.put("b_" + sim, docs[i]);
                }
                bulk.add(
                        client().prepareIndex("sims").setId(Integer.toString(i)).setSource(source));
            }
            assertNoFailures(bulk.get());
            client().admin().indices().prepareRefresh("sims").get();
        }
    }

    private float[] query(Random random) {
        return ExactScores.scaled(gaussian(random, 1, DIM)[0], 0.5f + random.nextFloat());
    }

    private List<Hit> search(QueryBuilder query) {
        return Hit.of(client().prepareSearch("sims").setQuery(query).setSize(K).get());
    }

    /** Every document a candidate: the float beam covers the corpus, and so do the binary walk's candidates. */
    private static CompressedKnnQueryBuilder exhaustive(String field, float[] q, QueryBuilder filter) {
        boolean binary = field.startsWith("b_");
        return CompressedKnnQueryBuilder.builder()
                .field(field)
                .vector(q)
                .k(K)
                .numCandidates(binary ? null : DOCS)
                .rescore(binary ? new RescoreOptions(true, (float) DOCS / K) : null)
                .filter(filter)
                .build();
    }

    /** Inner-product scores grow with the vectors' lengths: compare them to a relative tolerance. */
    private static void assertExact(List<Hit> expected, List<Hit> actual) {
        float largest = (float) expected.stream().mapToDouble(Hit::score).max().orElse(1);
        Hit.assertSameHits(expected, actual, 1e-5f * Math.max(1f, largest));
    }

    public void testFloatAndRescoredBinaryFieldsRankByTheTrueSimilarity() {
        Random random = new Random(randomLong());
        createAndIndex(random);
        for (int round = 0; round < 3; round++) {
            float[] q = query(random);
            for (String sim : SIMILARITIES) {
                List<Hit> expected = ExactScores.top(sim, docs, q, K, i -> true);
                assertExact(expected, search(exhaustive("f_" + sim, q, null)));
                assertExact(expected, search(exhaustive("b_" + sim, q, null)));
                List<Hit> filtered = ExactScores.top(sim, docs, q, K, i -> i % 3 == 2);
                for (String field : List.of("f_" + sim, "b_" + sim)) {
                    assertExact(filtered, search(exhaustive(field, q, QueryBuilders.termQuery("tag", 2))));
                }
            }
        }
        // a merged segment's binary graph is built on the codes' estimate of each similarity
        client().admin()
                .indices()
                .prepareForceMerge("sims")
                .setMaxNumSegments(1)
                .get();
        client().admin().indices().prepareRefresh("sims").get();
        for (int round = 0; round < 3; round++) {
            float[] q = query(random);
            for (String sim : SIMILARITIES) {
                List<Hit> expected = ExactScores.top(sim, docs, q, K, i -> true);
                assertExact(expected, search(exhaustive("f_" + sim, q, null)));
                assertExact(expected, search(exhaustive("b_" + sim, q, null)));
            }
        }
    }

    /**
     * Without rescoring, binary fields rank by the codes' estimate of the similarity: not exact, but
     * far better than chance. Default parameters (beam k, rescoring on) find most true neighbours.
     */
    public void testBinaryEstimateFindsTrueNeighbours() {
        Random random = new Random(randomLong());
        createAndIndex(random);
        for (String sim : SIMILARITIES) {
            int estimated = 0;
            int rescored = 0;
            for (int round = 0; round < 5; round++) {
                float[] q = query(random);
                Set<String> exact = new HashSet<>(ExactScores.top(sim, docs, q, K, i -> true).stream()
                        .map(Hit::id)
                        .toList());
                List<Hit> unrescored = search(CompressedKnnQueryBuilder.builder()
                        .field("b_" + sim)
                        .vector(q)
                        .k(K)
                        .numCandidates(DOCS)
                        .rescore(RescoreOptions.DISABLED)
                        .build());
                assertEquals(K, unrescored.size());
                estimated += (int)
                        unrescored.stream().filter(h -> exact.contains(h.id())).count();
                List<Hit> defaults = search(CompressedKnnQueryBuilder.builder()
                        .field("b_" + sim)
                        .vector(q)
                        .k(K)
                        .build());
                rescored += (int)
                        defaults.stream().filter(h -> exact.contains(h.id())).count();
            }
            // chance alone finds about 2.5 of 50 (10 of 200 documents, 5 queries); 12 seeds gave 21 to 32
            assertTrue(sim + ": the estimate found " + estimated + " of 50", estimated >= 12);
            assertTrue(sim + ": default rescoring found " + rescored + " of 50", rescored >= 35);
        }
    }
}
