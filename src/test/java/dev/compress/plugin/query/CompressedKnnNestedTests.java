package dev.compress.plugin.query;

import static org.opensearch.test.hamcrest.OpenSearchAssertions.assertNoFailures;

import dev.compress.plugin.CompressClusterTestCase;
import dev.compress.plugin.query.mask.MaskSpec;
import dev.compress.plugin.query.mask.MaskType;
import dev.compress.training.mask.DimensionMasks;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.lucene.search.join.ScoreMode;
import org.opensearch.action.bulk.BulkRequestBuilder;
import org.opensearch.action.search.SearchResponse;
import org.opensearch.action.support.WriteRequest;
import org.opensearch.common.settings.Settings;
import org.opensearch.common.xcontent.XContentType;
import org.opensearch.index.query.InnerHitBuilder;
import org.opensearch.index.query.QueryBuilder;
import org.opensearch.index.query.QueryBuilders;
import org.opensearch.search.SearchHit;
import org.opensearch.test.OpenSearchIntegTestCase;

/**
 * {@code compressed_knn} on a {@code compressed_vector} inside a {@code nested} field, one vector per
 * chunk, checked against brute force over the chunks on float and rescored binary fields: inside a
 * {@code nested} query the k nearest are parents, each scored by its best chunk (diversified: a parent
 * with many close chunks takes one place, not several; with a filter, its best chunk that passes), and
 * inner hits name that chunk; a radial search lists every chunk within the distance; a feedback mask learns from
 * the first pass's best chunks; outside a {@code nested} query the field is a 400.
 */
@OpenSearchIntegTestCase.ClusterScope(scope = OpenSearchIntegTestCase.Scope.SUITE, numDataNodes = 2, numClientNodes = 0)
public class CompressedKnnNestedTests extends CompressClusterTestCase {

    private static final int DIM = 16;
    private static final int PARENTS = 80;
    private static final int K = 10;

    /** chunks[p][c]: the vector of chunk c of parent p. */
    private float[][][] chunks;

    private void createAndIndex(Random random) {
        client().admin()
                .indices()
                .prepareCreate("docs")
                .setSettings(Settings.builder()
                        .put("index.number_of_shards", 2)
                        .put("index.number_of_replicas", 0)
                        .put("index.compress", true))
                .setMapping("{\"properties\":{\"chunks\":{\"type\":\"nested\",\"properties\":{"
                        + "\"f\":{\"type\":\"compressed_vector\",\"dimension\":16,\"similarity\":\"l2\"},"
                        + "\"b\":{\"type\":\"compressed_vector\",\"dimension\":16,\"encoding\":\"binary\",\"similarity\":\"l2\"},"
                        + "\"part\":{\"type\":\"integer\"}}},"
                        + "\"top\":{\"type\":\"compressed_vector\",\"dimension\":16}}}")
                .get();
        chunks = new float[PARENTS][][];
        BulkRequestBuilder bulk = client().prepareBulk().setRefreshPolicy(WriteRequest.RefreshPolicy.IMMEDIATE);
        for (int p = 0; p < PARENTS; p++) {
            // parents of many chunks: without diversification they would fill the top k on their own
            chunks[p] = gaussian(random, p % 5 == 0 ? 12 : 1 + random.nextInt(3), DIM);
            List<Map<String, Object>> nested = new ArrayList<>();
            for (int c = 0; c < chunks[p].length; c++) {
                Map<String, Object> chunk = new HashMap<>();
                chunk.put("f", chunks[p][c]);
                chunk.put("b", chunks[p][c]);
                chunk.put("part", c);
                nested.add(chunk);
            }
            bulk.add(client().prepareIndex("docs").setId(Integer.toString(p)).setSource(Map.of("chunks", nested)));
        }
        assertNoFailures(bulk.get());
    }

    /** A parent's best chunk: its offset and score. */
    private record Best(String parent, int offset, float score) {}

    private List<Best> bruteForce(float[] q, int k, int parts) {
        List<Best> best = new ArrayList<>();
        for (int p = 0; p < PARENTS; p++) {
            int top = 0;
            for (int c = 1; c < Math.min(parts, chunks[p].length); c++) {
                if (ExactScores.score("l2", q, chunks[p][c]) > ExactScores.score("l2", q, chunks[p][top])) {
                    top = c;
                }
            }
            best.add(new Best(Integer.toString(p), top, ExactScores.score("l2", q, chunks[p][top])));
        }
        return best.stream()
                .sorted(Comparator.comparingDouble((Best b) -> -b.score()))
                .limit(k)
                .toList();
    }

    private List<Best> search(String field, float[] q, QueryBuilder filter) {
        return search(field, q, filter, null);
    }

    private List<Best> search(String field, float[] q, QueryBuilder filter, MaskSpec mask) {
        CompressedKnnQueryBuilder knn = CompressedKnnQueryBuilder.builder()
                .field("chunks." + field)
                .vector(q)
                .k(K)
                .numCandidates(field.equals("f") ? 400 : null)
                .rescore(field.equals("b") ? new RescoreOptions(true, 40) : null)
                .filter(filter)
                .mask(mask)
                .build();
        SearchResponse response = client().prepareSearch("docs")
                .setQuery(QueryBuilders.nestedQuery("chunks", knn, ScoreMode.Max)
                        .innerHit(new InnerHitBuilder().setSize(5)))
                .setSize(K)
                .get();
        List<Best> hits = new ArrayList<>();
        for (SearchHit hit : response.getHits().getHits()) {
            SearchHit[] inner = hit.getInnerHits().get("chunks").getHits();
            assertEquals(hit.getId() + ": one chunk per parent", 1, inner.length);
            assertEquals(hit.getScore(), inner[0].getScore(), 1e-6f);
            hits.add(new Best(hit.getId(), inner[0].getNestedIdentity().getOffset(), hit.getScore()));
        }
        return hits;
    }

    public void testParentsRankedByTheirBestChunk() {
        Random random = new Random(randomLong());
        createAndIndex(random);
        for (int round = 0; round < 4; round++) {
            float[] q = gaussian(random, 1, DIM)[0];
            for (String field : List.of("f", "b")) {
                assertSameBest(field, bruteForce(q, K, Integer.MAX_VALUE), search(field, q, null));
                // a filter on the chunks: a parent ranks by its best chunk among those that pass
                assertSameBest(
                        field,
                        bruteForce(q, K, 2),
                        search(field, q, QueryBuilders.rangeQuery("chunks.part").lt(2)));
            }
        }
    }

    /**
     * A pseudo-relevance-feedback mask inside a {@code nested} query: its first pass ranks parents by their best
     * chunk, and those chunks' vectors are the feedback.
     */
    public void testFeedbackMasksLearnFromTheBestChunks() {
        Random random = new Random(randomLong());
        createAndIndex(random);
        MaskSpec dime = new MaskSpec(MaskType.DIME_PRF, 0.25, null, null, 2, 10, 1000, null);
        for (int round = 0; round < 3; round++) {
            float[] q = gaussian(random, 1, DIM)[0];
            float[][] feedback = bruteForce(q, 2, Integer.MAX_VALUE).stream()
                    .map(b -> unit(chunks[Integer.parseInt(b.parent())][b.offset()]))
                    .toArray(float[][]::new);
            MaskSpec expected = MaskSpec.explicit(DimensionMasks.dimePrf(q, feedback, 4));
            for (String field : List.of("f", "b")) {
                assertSameBest(field, search(field, q, null, expected), search(field, q, null, dime));
            }
        }
    }

    private static void assertSameBest(String field, List<Best> expected, List<Best> actual) {
        assertEquals(
                field,
                expected.stream().map(Best::parent).toList(),
                actual.stream().map(Best::parent).toList());
        for (int i = 0; i < expected.size(); i++) {
            assertEquals(
                    field + " " + actual.get(i),
                    expected.get(i).offset(),
                    actual.get(i).offset());
            assertEquals(expected.get(i).score(), actual.get(i).score(), 1e-5f);
        }
    }

    /**
     * Radial search inside a {@code nested} query matches every chunk within the distance: parents
     * score by their best chunk ({@code score_mode: max}) and inner hits list all their chunks within it.
     */
    public void testRadialSearchListsEveryChunkWithinTheDistance() {
        Random random = new Random(randomLong());
        createAndIndex(random);
        float[] q = gaussian(random, 1, DIM)[0];
        List<Double> distances = new ArrayList<>();
        for (float[][] parent : chunks) {
            for (float[] chunk : parent) {
                distances.add(Math.sqrt(ExactScores.squaredDistance(q, chunk)));
            }
        }
        distances.sort(null);
        float maxDistance = (float) ((distances.get(29) + distances.get(30)) / 2);
        for (String field : List.of("f", "b")) {
            SearchResponse response = client().prepareSearch("docs")
                    .setQuery(QueryBuilders.nestedQuery(
                                    "chunks",
                                    CompressedKnnQueryBuilder.builder()
                                            .field("chunks." + field)
                                            .vector(q)
                                            .maxDistance(maxDistance)
                                            .build(),
                                    ScoreMode.Max)
                            .innerHit(new InnerHitBuilder().setSize(20)))
                    .setSize(PARENTS)
                    .get();
            int chunksFound = 0;
            for (SearchHit hit : response.getHits().getHits()) {
                float[][] parent = chunks[Integer.parseInt(hit.getId())];
                List<Integer> within = new ArrayList<>();
                for (int c = 0; c < parent.length; c++) {
                    if (Math.sqrt(ExactScores.squaredDistance(q, parent[c])) <= maxDistance) {
                        within.add(c);
                    }
                }
                within.sort(Comparator.comparingDouble(c -> ExactScores.squaredDistance(q, parent[c])));
                List<Integer> listed = new ArrayList<>();
                for (SearchHit inner : hit.getInnerHits().get("chunks").getHits()) {
                    listed.add(inner.getNestedIdentity().getOffset());
                }
                assertEquals(field + " parent " + hit.getId(), within, listed);
                assertEquals(ExactScores.score("l2", q, parent[within.get(0)]), hit.getScore(), 1e-5f);
                chunksFound += within.size();
            }
            assertEquals(field, 30, chunksFound);
        }
    }

    /**
     * {@code expand_nested_docs}: the same k parents, and inner hits list every chunk of each, best
     * first, with exact scores; the parent scores as its best chunk ({@code score_mode: max}).
     */
    public void testExpandNestedDocsListsEveryChunkOfTheNearestParents() {
        Random random = new Random(randomLong());
        createAndIndex(random);
        for (int round = 0; round < 3; round++) {
            float[] q = gaussian(random, 1, DIM)[0];
            List<Best> expected = bruteForce(q, K, Integer.MAX_VALUE);
            for (String field : List.of("f", "b")) {
                SearchResponse response = client().prepareSearch("docs")
                        .setQuery(QueryBuilders.nestedQuery(
                                        "chunks",
                                        CompressedKnnQueryBuilder.builder()
                                                .field("chunks." + field)
                                                .vector(q)
                                                .k(K)
                                                .numCandidates(field.equals("f") ? 400 : null)
                                                .rescore(field.equals("b") ? new RescoreOptions(true, 40) : null)
                                                .expandNestedDocs(true)
                                                .build(),
                                        ScoreMode.Max)
                                .innerHit(new InnerHitBuilder().setSize(20)))
                        .setSize(K)
                        .get();
                SearchHit[] hits = response.getHits().getHits();
                assertEquals(
                        field,
                        expected.stream().map(Best::parent).toList(),
                        Arrays.stream(hits).map(SearchHit::getId).toList());
                for (int i = 0; i < K; i++) {
                    assertEquals(expected.get(i).score(), hits[i].getScore(), 1e-5f);
                    float[][] parent = chunks[Integer.parseInt(hits[i].getId())];
                    List<Hit> chunkHits = new ArrayList<>();
                    for (SearchHit inner : hits[i].getInnerHits().get("chunks").getHits()) {
                        chunkHits.add(new Hit(
                                Integer.toString(inner.getNestedIdentity().getOffset()), inner.getScore()));
                    }
                    Hit.assertSameHits(ExactScores.ranked("l2", parent, q, c -> true), chunkHits, 1e-5f);
                }
            }
        }
    }

    public void testNestedFieldOutsideANestedQueryIsA400() throws Exception {
        createAndIndex(new Random(3));
        float[] ones = new float[DIM];
        Arrays.fill(ones, 1f);
        String vector = Arrays.toString(ones);
        String error = restError(
                400,
                "POST",
                "/docs/_search",
                "{\"query\":{\"compressed_knn\":{\"field\":\"chunks.f\",\"vector\":" + vector + ",\"k\":3}}}");
        assertTrue(
                error,
                error.contains("[compressed_knn] field [chunks.f] is inside nested field [chunks]: search it within a"
                        + " [nested] query with [path: chunks]"));
        String notNested = restError(
                400,
                "POST",
                "/docs/_search",
                "{\"query\":{\"compressed_knn\":{\"field\":\"top\",\"vector\":" + vector
                        + ",\"k\":3,\"expand_nested_docs\":true}}}");
        assertTrue(
                notNested,
                notNested.contains("[compressed_knn] [expand_nested_docs] applies inside a [nested] query only, and"
                        + " field [top] is searched outside one"));
        String radial = restError(
                400,
                "POST",
                "/docs/_search",
                "{\"query\":{\"nested\":{\"path\":\"chunks\",\"query\":{\"compressed_knn\":{\"field\":\"chunks.f\","
                        + "\"vector\":" + vector + ",\"min_score\":0.5,\"expand_nested_docs\":true}}}}}");
        assertTrue(radial, radial.contains("[expand_nested_docs] applies to [k] searches only, not to [min_score]"));
    }

    @SuppressWarnings("unchecked")
    public void testANestedQueryOnAnotherPathThanTheFieldsIsA400() throws Exception {
        client().admin()
                .indices()
                .prepareCreate("levels")
                .setSettings(Settings.builder().put("index.compress", true))
                .setMapping("{\"properties\":{\"sec\":{\"type\":\"nested\",\"properties\":{"
                        + "\"par\":{\"type\":\"nested\",\"properties\":{"
                        + "\"e\":{\"type\":\"compressed_vector\",\"dimension\":3,\"similarity\":\"l2\"}}}}},"
                        + "\"top\":{\"type\":\"compressed_vector\",\"dimension\":3,\"similarity\":\"l2\"}}}")
                .get();
        client().prepareIndex("levels")
                .setId("1")
                .setSource("{\"top\":[1,0,0],\"sec\":[{\"par\":[{\"e\":[1,0,0]},{\"e\":[0,1,0]}]}]}", XContentType.JSON)
                .setRefreshPolicy(WriteRequest.RefreshPolicy.IMMEDIATE)
                .get();
        String knn = "\"vector\":[1,0,0],\"k\":2}}";
        String outer = restError(
                400,
                "POST",
                "/levels/_search",
                "{\"query\":{\"nested\":{\"path\":\"sec\",\"query\":{\"compressed_knn\":{\"field\":\"sec.par.e\"," + knn
                        + "}}}");
        assertTrue(
                outer,
                outer.contains("[compressed_knn] field [sec.par.e] is inside nested field [sec.par], but is searched"
                        + " within a [nested] query with [path: sec]: search it within a [nested] query with [path:"
                        + " sec.par]"));
        String top = restError(
                400,
                "POST",
                "/levels/_search",
                "{\"query\":{\"nested\":{\"path\":\"sec\",\"query\":{\"compressed_knn\":{\"field\":\"top\"," + knn
                        + "}}}");
        assertTrue(
                top,
                top.contains("[compressed_knn] field [top] is inside no nested field, but is searched within a"
                        + " [nested] query with [path: sec]"));
        for (String query : List.of(
                "{\"nested\":{\"path\":\"sec.par\",\"query\":{\"compressed_knn\":{\"field\":\"sec.par.e\"," + knn
                        + "}}",
                "{\"nested\":{\"path\":\"sec\",\"query\":{\"nested\":{\"path\":\"sec.par\",\"query\":"
                        + "{\"compressed_knn\":{\"field\":\"sec.par.e\"," + knn + "}}}}")) {
            Map<String, Object> hits =
                    (Map<String, Object>) restCall("POST", "/levels/_search", "{\"query\":" + query + "}")
                            .get("hits");
            assertEquals(query, 1, ((List<?>) hits.get("hits")).size());
        }
    }
}
