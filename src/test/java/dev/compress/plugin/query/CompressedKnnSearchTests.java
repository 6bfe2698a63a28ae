package dev.compress.plugin.query;

import static org.opensearch.test.hamcrest.OpenSearchAssertions.assertAcked;
import static org.opensearch.test.hamcrest.OpenSearchAssertions.assertNoFailures;

import dev.compress.plugin.CompressClusterTestCase;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.stream.IntStream;
import org.opensearch.action.bulk.BulkRequestBuilder;
import org.opensearch.action.search.SearchResponse;
import org.opensearch.action.support.WriteRequest;
import org.opensearch.common.settings.Settings;
import org.opensearch.index.query.QueryBuilder;
import org.opensearch.index.query.QueryBuilders;
import org.opensearch.search.SearchHit;
import org.opensearch.test.OpenSearchIntegTestCase;

/**
 * {@code compressed_knn} on two data nodes and two shards, checked against brute-force cosine
 * ranking: when the candidate set covers every document, rescored results must equal it exactly.
 */
@OpenSearchIntegTestCase.ClusterScope(scope = OpenSearchIntegTestCase.Scope.SUITE, numDataNodes = 2, numClientNodes = 0)
public class CompressedKnnSearchTests extends CompressClusterTestCase {

    private static final int DOCS = 240;

    private static float[][] unitVectors(Random random, int n, int dims) {
        float[][] vectors = gaussian(random, n, dims);
        for (float[] v : vectors) {
            double norm = 0;
            for (int j = 0; j < dims; j++) {
                norm += v[j] * v[j];
            }
            for (int j = 0; j < dims; j++) {
                v[j] /= (float) Math.sqrt(norm);
            }
        }
        return vectors;
    }

    private static String color(int doc) {
        return doc % 3 == 0 ? "red" : "blue";
    }

    /** Indexes in {@code batches} refreshes so shards have several segments. */
    private void createAndIndex(String index, String fieldMapping, float[][] vectors, int batches) {
        client().admin()
                .indices()
                .prepareCreate(index)
                .setSettings(Settings.builder()
                        .put("index.number_of_shards", 2)
                        .put("index.number_of_replicas", 0)
                        .put("index.compress", true)
                        .put("index.refresh_interval", -1))
                .setMapping("{\"properties\":{\"v\":" + fieldMapping + ",\"color\":{\"type\":\"keyword\"}}}")
                .get();
        int perBatch = (vectors.length + batches - 1) / batches;
        for (int start = 0; start < vectors.length; start += perBatch) {
            BulkRequestBuilder bulk = client().prepareBulk();
            for (int i = start; i < Math.min(vectors.length, start + perBatch); i++) {
                bulk.add(client().prepareIndex(index)
                        .setId(Integer.toString(i))
                        .setSource(Map.of("v", vectors[i], "color", color(i))));
            }
            assertNoFailures(bulk.get());
            client().admin().indices().prepareRefresh(index).get();
        }
    }

    private static List<String> bruteForce(
            float[][] vectors, float[] query, int k, java.util.function.IntPredicate accept) {
        return IntStream.range(0, vectors.length)
                .filter(accept)
                .boxed()
                .sorted(Comparator.comparingDouble((Integer i) -> -dot(vectors[i], query)))
                .limit(k)
                .map(String::valueOf)
                .toList();
    }

    private static double dot(float[] a, float[] b) {
        double s = 0;
        for (int i = 0; i < a.length; i++) {
            s += a[i] * b[i];
        }
        return s;
    }

    private List<String> search(String index, QueryBuilder query, int size) {
        SearchResponse response =
                client().prepareSearch(index).setQuery(query).setSize(size).get();
        List<String> ids = new ArrayList<>();
        float previous = Float.MAX_VALUE;
        for (SearchHit hit : response.getHits().getHits()) {
            assertTrue("scores must be sorted", hit.getScore() <= previous);
            previous = hit.getScore();
            ids.add(hit.getId());
        }
        return ids;
    }

    private static CompressedKnnQueryBuilder knn(
            float[] q, int k, Integer numCandidates, RescoreOptions rescore, QueryBuilder filter) {
        return CompressedKnnQueryBuilder.builder()
                .field("v")
                .vector(q)
                .k(k)
                .numCandidates(numCandidates)
                .rescore(rescore)
                .filter(filter)
                .build();
    }

    public void testFloatFieldEqualsBruteForceWithFullBeam() {
        Random random = new Random(randomLong());
        float[][] vectors = unitVectors(random, DOCS, 24);
        createAndIndex(
                "floats", "{\"type\":\"compressed_vector\",\"dimension\":24,\"encoding\":\"float\"}", vectors, 3);
        for (float[] q : unitVectors(random, 5, 24)) {
            assertEquals(bruteForce(vectors, q, 10, i -> true), search("floats", knn(q, 10, DOCS, null, null), 10));
        }
    }

    public void testBinaryRescoredEqualsBruteForceWhenCandidatesCoverTheCorpus() {
        Random random = new Random(randomLong());
        float[][] vectors = unitVectors(random, DOCS, 64);
        createAndIndex("bits", "{\"type\":\"compressed_vector\",\"dimension\":64,\"encoding\":\"binary\"}", vectors, 4);
        int found = 0;
        for (float[] q : unitVectors(random, 5, 64)) {
            List<String> exact = bruteForce(vectors, q, 10, i -> true);
            assertEquals(exact, search("bits", knn(q, 10, null, new RescoreOptions(true, 30f), null), 10));
            List<String> hamming = search("bits", knn(q, 10, null, RescoreOptions.DISABLED, null), 10);
            assertEquals(10, hamming.size());
            Set<String> overlap = new HashSet<>(hamming);
            overlap.retainAll(exact);
            found += overlap.size();
        }
        // Summed over the 5 queries, as one query's overlap varies too much from corpus to corpus to
        // bound alone; 12 is far above the few true neighbours chance alone would find.
        assertTrue("1-bit ranking should find true neighbours: " + found + " of 50", found >= 12);
    }

    public void testFilterIsAppliedBeforeTopK() {
        Random random = new Random(randomLong());
        float[][] vectors = unitVectors(random, DOCS, 32);
        createAndIndex(
                "filtered", "{\"type\":\"compressed_vector\",\"dimension\":32,\"encoding\":\"binary\"}", vectors, 2);
        float[] q = unitVectors(random, 1, 32)[0];
        List<String> hits = search(
                "filtered",
                knn(q, 10, null, new RescoreOptions(true, 30f), QueryBuilders.termQuery("color", "red")),
                10);
        assertEquals(bruteForce(vectors, q, 10, i -> color(i).equals("red")), hits);
    }

    /**
     * OpenSearch applies a filtered alias's filter around the query, after the k nearest are found (as
     * docs/api.md says): through the alias, the hits are the k nearest that pass it, often fewer than k;
     * the same filter as [filter] searches within it.
     */
    public void testAFilteredAliasFiltersAfterTheTopKAndTheFilterParameterBefore() {
        Random random = new Random(randomLong());
        float[][] vectors = unitVectors(random, DOCS, 16);
        client().admin()
                .indices()
                .prepareCreate("aliased")
                .setSettings(Settings.builder()
                        .put("index.number_of_shards", 1)
                        .put("index.number_of_replicas", 0)
                        .put("index.compress", true))
                .setMapping("{\"properties\":{\"v\":{\"type\":\"compressed_vector\",\"dimension\":16,"
                        + "\"encoding\":\"float\"},\"color\":{\"type\":\"keyword\"}}}")
                .get();
        BulkRequestBuilder bulk = client().prepareBulk().setRefreshPolicy(WriteRequest.RefreshPolicy.IMMEDIATE);
        for (int i = 0; i < vectors.length; i++) {
            bulk.add(client().prepareIndex("aliased")
                    .setId(Integer.toString(i))
                    .setSource(Map.of("v", vectors[i], "color", color(i))));
        }
        assertNoFailures(bulk.get());
        assertAcked(client().admin()
                .indices()
                .prepareAliases()
                .addAlias("aliased", "reds", QueryBuilders.termQuery("color", "red")));
        for (float[] q : unitVectors(random, 3, 16)) {
            List<String> nearestRed = bruteForce(vectors, q, 10, i -> true).stream()
                    .filter(id -> color(Integer.parseInt(id)).equals("red"))
                    .toList();
            assertEquals(nearestRed, search("reds", knn(q, 10, DOCS, null, null), 10));
            assertEquals(
                    bruteForce(vectors, q, 10, i -> color(i).equals("red")),
                    search("reds", knn(q, 10, DOCS, null, QueryBuilders.termQuery("color", "red")), 10));
        }
    }

    public void testDeletedDocumentsNeverComeBackAndForceMergeKeepsResults() {
        Random random = new Random(randomLong());
        float[][] vectors = unitVectors(random, DOCS, 48);
        createAndIndex(
                "merged", "{\"type\":\"compressed_vector\",\"dimension\":48,\"encoding\":\"binary\"}", vectors, 6);
        float[] q = unitVectors(random, 1, 48)[0];
        List<String> before = search("merged", knn(q, 10, null, new RescoreOptions(true, 30f), null), 10);
        assertEquals(bruteForce(vectors, q, 10, i -> true), before);
        Set<Integer> deleted = new HashSet<>();
        for (String id : before.subList(0, 3)) {
            client().prepareDelete("merged", id)
                    .setRefreshPolicy(WriteRequest.RefreshPolicy.IMMEDIATE)
                    .get();
            deleted.add(Integer.parseInt(id));
        }
        List<String> expected = bruteForce(vectors, q, 10, i -> deleted.contains(i) == false);
        assertEquals(expected, search("merged", knn(q, 10, null, new RescoreOptions(true, 30f), null), 10));
        client().admin()
                .indices()
                .prepareForceMerge("merged")
                .setMaxNumSegments(1)
                .get();
        client().admin().indices().prepareRefresh("merged").get();
        assertEquals(expected, search("merged", knn(q, 10, null, new RescoreOptions(true, 30f), null), 10));
    }

    /**
     * A codes-only field ({@code rescore_vectors: false}) over many segments: deleted documents
     * never come back, and a force merge, which rebuilds the codes from codes, keeps every live
     * document findable (each finds itself first) and the ranking close to exact.
     */
    public void testCodesOnlyFieldSurvivesDeletesAndForceMerge() {
        Random random = new Random(randomLong());
        float[][] vectors = unitVectors(random, DOCS, 64);
        createAndIndex(
                "codes",
                "{\"type\":\"compressed_vector\",\"dimension\":64,\"encoding\":\"binary\",\"rescore_vectors\":false}",
                vectors,
                6);
        float[][] queries = unitVectors(random, 5, 64);
        Set<Integer> deleted = new HashSet<>();
        for (String id :
                search("codes", knn(queries[0], 10, DOCS, null, null), 10).subList(0, 3)) {
            client().prepareDelete("codes", id)
                    .setRefreshPolicy(WriteRequest.RefreshPolicy.IMMEDIATE)
                    .get();
            deleted.add(Integer.parseInt(id));
        }
        assertCodesOnlyRanking(vectors, queries, deleted);
        client().admin()
                .indices()
                .prepareForceMerge("codes")
                .setMaxNumSegments(1)
                .get();
        client().admin().indices().prepareRefresh("codes").get();
        assertEquals(
                2,
                client()
                        .admin()
                        .indices()
                        .prepareSegments("codes")
                        .get()
                        .getIndices()
                        .get("codes")
                        .getShards()
                        .values()
                        .stream()
                        .mapToInt(shard -> shard.getShards()[0].getSegments().size())
                        .sum());
        assertCodesOnlyRanking(vectors, queries, deleted);
    }

    private void assertCodesOnlyRanking(float[][] vectors, float[][] queries, Set<Integer> deleted) {
        int found = 0;
        for (float[] q : queries) {
            List<String> hits = search("codes", knn(q, 10, DOCS, null, null), 10);
            assertEquals(10, hits.size());
            for (String id : hits) {
                assertFalse("deleted document " + id + " came back", deleted.contains(Integer.parseInt(id)));
            }
            Set<String> overlap = new HashSet<>(hits);
            overlap.retainAll(bruteForce(vectors, q, 10, i -> deleted.contains(i) == false));
            found += overlap.size();
        }
        // The Hamming ranking's bound (above), for an estimate from the same codes: 20 seeds gave 18 to 28.
        assertTrue("codes-only ranking should find true neighbours: " + found + " of 50", found >= 12);
        for (int doc = 0; doc < vectors.length; doc += 17) {
            if (deleted.contains(doc) == false) {
                assertEquals(
                        Integer.toString(doc),
                        search("codes", knn(vectors[doc], 1, DOCS, null, null), 1)
                                .get(0));
            }
        }
    }

    public void testMoreDimensionsThanLuceneDefaultLimit() {
        Random random = new Random(randomLong());
        float[][] vectors = unitVectors(random, 40, 2048);
        createAndIndex(
                "wide_bits", "{\"type\":\"compressed_vector\",\"dimension\":2048,\"encoding\":\"binary\"}", vectors, 1);
        createAndIndex(
                "wide_floats",
                "{\"type\":\"compressed_vector\",\"dimension\":2048,\"encoding\":\"float\"}",
                vectors,
                1);
        float[] q = vectors[7];
        assertEquals("7", search("wide_bits", knn(q, 1, null, null, null), 1).get(0));
        assertEquals("7", search("wide_floats", knn(q, 1, 40, null, null), 1).get(0));
    }

    private String badRequest(String index, String queryBody) throws Exception {
        return restError(400, "POST", "/" + index + "/_search", "{\"query\":{\"compressed_knn\":" + queryBody + "}}");
    }

    public void testBadQueriesAre400sThatNameTheProblem() throws Exception {
        float[][] vectors = unitVectors(new Random(1), 10, 4);
        createAndIndex(
                "errs",
                "{\"type\":\"compressed_vector\",\"dimension\":4,\"encoding\":\"binary\",\"rescore_vectors\":false}",
                vectors,
                1);
        String q = Arrays.toString(vectors[0]);
        assertTrue(badRequest("errs", "{\"field\":\"v\",\"vector\":[1,0],\"k\":3}")
                .contains("[vector] has 2 dimensions but field [v] has 4"));
        assertTrue(badRequest("errs", "{\"field\":\"color\",\"vector\":" + q + ",\"k\":3}")
                .contains("is of type [keyword], not [compressed_vector]"));
        assertTrue(badRequest("errs", "{\"field\":\"nope\",\"vector\":" + q + ",\"k\":3}")
                .contains("field [nope] does not exist"));
        // with ignore_unmapped the same search finds nothing on that index instead of failing
        Map<String, Object> ignored = restCall(
                "POST",
                "/errs/_search",
                "{\"query\":{\"compressed_knn\":{\"field\":\"nope\",\"vector\":" + q
                        + ",\"k\":3,\"ignore_unmapped\":true}}}");
        assertEquals(0, ((Map<?, ?>) ignored.get("_shards")).get("failed"));
        assertEquals(List.of(), ((Map<?, ?>) ignored.get("hits")).get("hits"));
        assertTrue(badRequest("errs", "{\"field\":\"v\",\"vector\":" + q + ",\"k\":0}")
                .contains("[k] must be in [1, 10000], got [0]"));
        assertTrue(badRequest("errs", "{\"field\":\"v\",\"vector\":" + q + ",\"k\":3,\"num_candidates\":2}")
                .contains("[num_candidates] must be in [k=3"));
        assertTrue(badRequest("errs", "{\"field\":\"v\",\"vector\":" + q + ",\"k\":3,\"bogus\":1}")
                .contains("unknown parameter [bogus]"));
        for (String notAQuery : new String[] {"null", "\"x\"", "[{\"match_all\":{}}]"}) {
            String error =
                    badRequest("errs", "{\"field\":\"v\",\"vector\":" + q + ",\"k\":3,\"filter\":" + notAQuery + "}");
            assertTrue(error, error.contains("[compressed_knn] bad [filter]: expects a query object, got ["));
        }
        // nested in its own filter, time doubled with every level, and PRF masks on each level answered 500
        String inner = "{\"compressed_knn\":{\"field\":\"v\",\"vector\":" + q + ",\"k\":3}}";
        for (String filter : new String[] {inner, "{\"bool\":{\"should\":[{\"match_all\":{}}," + inner + "]}}"}) {
            String nested =
                    badRequest("errs", "{\"field\":\"v\",\"vector\":" + q + ",\"k\":3,\"filter\":" + filter + "}");
            assertTrue(
                    nested,
                    nested.contains("[compressed_knn] [filter] must not contain another [compressed_knn] query"));
        }
        assertTrue(badRequest(
                        "errs",
                        "{\"field\":\"v\",\"vector\":" + q + ",\"k\":3,\"rescore\":{\"oversample_factor\":0.5}}")
                .contains("[rescore.oversample_factor] must be in [1, 100.0], got [0.5]"));
        assertTrue(badRequest("errs", "{\"field\":\"v\",\"vector\":[1,\"x\",0,0],\"k\":3}")
                .contains("expected only numbers"));
        String beyondFloat = badRequest("errs", "{\"field\":\"v\",\"vector\":[1,1e39,0,0],\"k\":3}");
        assertTrue(
                beyondFloat,
                beyondFloat.contains(
                        "[compressed_knn] bad [vector]: the value [1e39] at position 1 is outside float's range"));
        // finite, but its cosine with any vector overflows float: every score would be NaN
        String huge = badRequest("errs", "{\"field\":\"v\",\"vector\":[1e30,0,0,0],\"k\":3}");
        assertTrue(
                huge,
                huge.contains("[compressed_knn] [vector] has length 1.0E30, above 9.2233715E18: similarity scores of"
                        + " a vector that long overflow float arithmetic"));
        String zero = badRequest("errs", "{\"field\":\"v\",\"vector\":[0,0,0,0],\"k\":3}");
        assertTrue(
                zero,
                zero.contains("field [v] uses similarity [cosine], and [compressed_knn] [vector] is the zero vector,"
                        + " for which cosine is undefined"));
        // its squares underflow float: against stored vectors every score was NaN or Infinity
        String tiny = badRequest("errs", "{\"field\":\"v\",\"vector\":[1e-23,1e-23,0,0],\"k\":3}");
        assertTrue(
                tiny,
                tiny.contains("field [v] uses similarity [cosine], and [compressed_knn] [vector] has length 1.41"));
        assertTrue(tiny, tiny.contains("below 1.0842022E-19: cosine similarity of a vector that short underflows"));
        String maskedZero = badRequest(
                "errs", "{\"field\":\"v\",\"vector\":[0,1,1,1],\"k\":3,\"mask\":{\"type\":\"explicit\",\"kept\":[0]}}");
        assertTrue(
                maskedZero,
                maskedZero.contains("field [v] uses similarity [cosine], and [compressed_knn] [vector] after [mask] is"
                        + " the zero vector"));
        // dot_product is clamped at 0 and ranks correctly only on unit vectors: [-3, -4] tied every document at 0
        createAndIndex(
                "errs_dp",
                "{\"type\":\"compressed_vector\",\"dimension\":4,\"similarity\":\"dot_product\"}",
                vectors,
                1);
        assertEquals(
                "0", search("errs_dp", knn(vectors[0], 1, null, null, null), 1).get(0));
        String notUnit = badRequest("errs_dp", "{\"field\":\"v\",\"vector\":[-3,-4,0,0],\"k\":1}");
        assertTrue(
                notUnit,
                notUnit.contains("[compressed_knn] [vector] searches field [v] with similarity [dot_product], which"
                        + " needs unit-length vectors; this one has length 5.0"));
        // codes only: reranked with the float query against the codes, or not at all
        assertEquals(
                "0", search("errs", knn(vectors[0], 3, null, null, null), 10).get(0));
        // k is per shard, as in the k-NN plugin: two shards give up to 2k hits, the request's size caps them
        int hits = search("errs", knn(vectors[0], 3, null, RescoreOptions.DISABLED, null), 10)
                .size();
        assertTrue("hits: " + hits, hits > 3 && hits <= 6);
        assertEquals(
                3,
                search("errs", knn(vectors[0], 3, null, RescoreOptions.DISABLED, null), 3)
                        .size());
    }
}
