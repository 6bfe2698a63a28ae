package dev.compress.plugin.query;

import dev.compress.plugin.CompressClusterTestCase;
import dev.compress.plugin.inference.EvictModelAction;
import dev.compress.plugin.inference.EvictModelRequest;
import dev.compress.plugin.inference.ModelCache;
import dev.compress.plugin.inference.StoredModels;
import dev.compress.plugin.model.ModelFields;
import dev.compress.plugin.model.ModelIndex;
import dev.compress.plugin.model.ModelState;
import dev.compress.training.inference.CpuEncoders;
import dev.compress.training.inference.Encoder;
import dev.compress.training.model.ModelArtifact;
import dev.compress.training.model.ModelFile;
import dev.compress.training.model.ModelFileTests;
import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.opensearch.action.bulk.BulkRequestBuilder;
import org.opensearch.action.support.PlainActionFuture;
import org.opensearch.action.support.WriteRequest;
import org.opensearch.common.settings.Settings;
import org.opensearch.common.xcontent.XContentType;
import org.opensearch.core.action.ActionListener;
import org.opensearch.index.query.QueryBuilder;
import org.opensearch.test.OpenSearchIntegTestCase;
import org.opensearch.threadpool.ThreadPool;

/** {@code compressed_knn} with {@code model_id}: adapted in the rewrite, same hits as a hand-adapted vector; errors. */
@OpenSearchIntegTestCase.ClusterScope(scope = OpenSearchIntegTestCase.Scope.SUITE, numDataNodes = 2, numClientNodes = 0)
public class CompressedKnnModelTests extends CompressClusterTestCase {

    private static final int INPUT_DIM = 32;
    private static final int DOCS = 120;

    /** Stores model [qa] (32 -> {8, 16}) and indexes documents whose vectors were adapted by hand. */
    private ModelArtifact setUpModelAndIndex(Random random) {
        ModelArtifact artifact = ModelFileTests.sampleModel(11, INPUT_DIM, 48, 16);
        // the suite's cluster outlives each test's indices, not the nodes' caches: start from none, as a DELETE leaves
        // it
        client().execute(EvictModelAction.INSTANCE, new EvictModelRequest("qa")).actionGet();
        storeModel("qa", artifact, ModelState.CREATED);
        client().admin()
                .indices()
                .prepareCreate("docs")
                .setSettings(Settings.builder()
                        .put("index.number_of_shards", 2)
                        .put("index.number_of_replicas", 0)
                        .put("index.compress", true))
                .setMapping(
                        "{\"properties\":{\"emb\":{\"type\":\"compressed_vector\",\"dimension\":16,\"encoding\":\"float\"},"
                                + "\"emb8\":{\"type\":\"compressed_vector\",\"dimension\":8,\"encoding\":\"binary\"}}}")
                .get();
        float[][] raw = gaussian(random, DOCS, INPUT_DIM);
        float[][] adapted16 = CpuEncoders.forServing(artifact, 16).encode(raw);
        float[][] adapted8 = CpuEncoders.forServing(artifact, 8).encode(raw);
        BulkRequestBuilder bulk = client().prepareBulk().setRefreshPolicy(WriteRequest.RefreshPolicy.IMMEDIATE);
        for (int i = 0; i < DOCS; i++) {
            bulk.add(client().prepareIndex("docs")
                    .setId(Integer.toString(i))
                    .setSource(Map.of("emb", adapted16[i], "emb8", adapted8[i])));
        }
        assertFalse(bulk.get().hasFailures());
        return artifact;
    }

    private List<Hit> search(String node, QueryBuilder query) {
        return Hit.of(
                client(node).prepareSearch("docs").setQuery(query).setSize(10).get());
    }

    /**
     * Same ids in the same order and the same scores; scores only to 1e-6, because the codec's scores for
     * one query vector can differ in the last bit between two searches, and so can the adapted vector.
     */
    private static void assertSameHits(List<Hit> expected, List<Hit> actual) {
        Hit.assertSameHits(expected, actual, 1e-6f);
    }

    public void testModelIdGivesTheHitsOfTheHandAdaptedVector() throws IOException {
        Random random = new Random(randomLong());
        ModelArtifact artifact = setUpModelAndIndex(random);
        Encoder encoder16 = CpuEncoders.forServing(artifact, 16);
        Encoder encoder8 = CpuEncoders.forServing(artifact, 8);
        String node = internalCluster().getDataNodeNames().iterator().next();
        ModelCache cache = internalCluster().getInstance(ModelCache.class, node);
        long loadsBefore = cache.loadCount();
        for (float[] q : gaussian(random, 5, INPUT_DIM)) {
            float[] adapted = client(node)
                    .execute(AdaptQueryVectorAction.INSTANCE, new AdaptQueryVectorRequest("qa", null, q, "emb", null))
                    .actionGet()
                    .vector();
            // within 1e-6, not bit for bit: the Vector API's reduceLanes(ADD) may associate differently before
            // and after C2 intrinsifies it (a fold in a fixed order would slow serving), so one input can
            // encode an ulp apart
            assertArrayEquals(encoder16.encode(q), adapted, 1e-6f);
            List<Hit> byHand = search(
                    node, knn("emb", encoder16.encode(q)).numCandidates(DOCS).build());
            List<Hit> withModel =
                    search(node, knn("emb", q).numCandidates(DOCS).modelId("qa").build());
            assertEquals(10, byHand.size());
            assertSameHits(byHand, withModel);

            RescoreOptions rescore = new RescoreOptions(true, 20f);
            assertSameHits(
                    search(
                            node,
                            knn("emb8", encoder8.encode(q)).rescore(rescore).build()),
                    search(
                            node,
                            knn("emb8", q)
                                    .rescore(rescore)
                                    .modelId("qa")
                                    .modelDimension(8)
                                    .build()));
            // the field's dimension, 8, is the output a model with several serves when the query names none
            assertSameHits(
                    search(
                            node,
                            knn("emb8", encoder8.encode(q)).rescore(rescore).build()),
                    search(node, knn("emb8", q).rescore(rescore).modelId("qa").build()));
        }
        assertTrue(
                "the coordinating node keeps the model", cache.cachedModelIds().contains("qa"));
        assertEquals("one load served every query", 1, cache.loadCount() - loadsBefore);

        // the REST body carries model_id too
        float[] q = gaussian(random, 1, INPUT_DIM)[0];
        String body = "{\"size\":10,\"query\":{\"compressed_knn\":{\"field\":\"emb\",\"k\":10,\"num_candidates\":"
                + DOCS + ",\"model_id\":\"qa\",\"vector\":" + Arrays.toString(q) + "}}}";
        Map<String, Object> response = restCall("POST", "/docs/_search", body);
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> hitList =
                (List<Map<String, Object>>) ((Map<String, Object>) response.get("hits")).get("hits");
        List<String> restIds =
                hitList.stream().map(hit -> (String) hit.get("_id")).toList();
        List<String> expected = search(
                        node,
                        knn("emb", encoder16.encode(q)).numCandidates(DOCS).build())
                .stream()
                .map(Hit::id)
                .toList();
        assertEquals(expected, restIds);
    }

    /**
     * A rewrite asks for the adapted vector on the thread that received the search, a network thread for REST:
     * with the model already cached, the forward pass still runs on a search thread.
     */
    public void testACachedModelAdaptsOnASearchThread() throws Exception {
        Random random = new Random(randomLong());
        setUpModelAndIndex(random);
        String node = internalCluster().getDataNodeNames().iterator().next();
        for (int call = 0; call < 2; call++) { // a load, then a cache hit
            PlainActionFuture<String> thread = new PlainActionFuture<>();
            client(node)
                    .execute(
                            AdaptQueryVectorAction.INSTANCE,
                            new AdaptQueryVectorRequest("qa", null, gaussian(random, 1, INPUT_DIM)[0], "emb", null),
                            ActionListener.map(
                                    thread, response -> Thread.currentThread().getName()));
            String name = thread.get(30, TimeUnit.SECONDS);
            assertTrue("call " + call + " answered on " + name, name.contains("[" + ThreadPool.Names.SEARCH + "]"));
        }
        assertTrue(internalCluster()
                .getInstance(ModelCache.class, node)
                .cachedModelIds()
                .contains("qa"));
    }

    /** The 10 nearest neighbours of {@code q} on {@code field}, to be given the rest. */
    private static CompressedKnnQueryBuilder.Builder knn(String field, float[] q) {
        return CompressedKnnQueryBuilder.builder().field(field).vector(q).k(10);
    }

    private void assertSearchError(String knnBody, int status, String message) throws IOException {
        assertSearchError("/docs/_search", knnBody, status, message);
    }

    private void assertSearchError(String path, String knnBody, int status, String message) throws IOException {
        String body = restError(status, "POST", path, "{\"query\":{\"compressed_knn\":" + knnBody + "}}");
        assertTrue(knnBody + " -> " + body, body.contains(message));
    }

    private static void createIndexWithEmb(String index, int dimension) {
        client().admin()
                .indices()
                .prepareCreate(index)
                .setSettings(Settings.builder().put("index.compress", true))
                .setMapping("{\"properties\":{\"emb\":{\"type\":\"compressed_vector\",\"dimension\":" + dimension
                        + ",\"encoding\":\"float\"}}}")
                .get();
    }

    public void testModelErrors() throws IOException {
        setUpModelAndIndex(new Random(randomLong()));
        storeModel("unfinished", ModelFileTests.sampleModel(3, INPUT_DIM, 8, 16), ModelState.TRAINING);
        String q32 = Arrays.toString(gaussian(new Random(1), 1, INPUT_DIM)[0]);
        String q31 = Arrays.toString(Arrays.copyOf(gaussian(new Random(1), 1, INPUT_DIM)[0], 31));
        assertSearchError(
                "{\"field\":\"emb\",\"k\":3,\"model_id\":\"nope\",\"vector\":" + q32 + "}",
                404,
                "model [nope] does not exist");
        assertSearchError(
                "{\"field\":\"emb\",\"k\":3,\"model_id\":\"unfinished\",\"vector\":" + q32 + "}",
                400,
                "model [unfinished] is in state [training]");
        assertSearchError(
                "{\"field\":\"emb\",\"k\":3,\"model_id\":\"qa\",\"vector\":" + q31 + "}",
                400,
                "[vector] has 31 dimensions but model [qa] expects 32");
        assertSearchError(
                "{\"field\":\"emb\",\"k\":3,\"model_id\":\"qa\",\"model_dimension\":12,\"vector\":" + q32 + "}",
                400,
                "model [qa] serves output dimensions [8, 16], not [12]");
        assertSearchError(
                "{\"field\":\"emb\",\"k\":3,\"model_dimension\":8,\"vector\":" + q32 + "}",
                400,
                "[model_dimension] requires [model_id]");
        // without model_dimension the field's own dimension is served, through a field alias too; one the model does
        // not
        // serve is a 400 naming both
        createIndexWithEmb("twelve", 12);
        assertSearchError(
                "/twelve/_search",
                "{\"field\":\"emb\",\"k\":3,\"model_id\":\"qa\",\"vector\":" + q32 + "}",
                400,
                "[compressed_knn] field [emb] has 12 dimensions, and model [qa] serves output dimensions [8, 16]");
        client().admin()
                .indices()
                .preparePutMapping("docs")
                .setSource(
                        "{\"properties\":{\"emb8_alias\":{\"type\":\"alias\",\"path\":\"emb8\"}}}", XContentType.JSON)
                .get();
        // a field alias searches the field it names (it once searched a Lucene field of its own name, and found
        // nothing)
        float[] eight = Arrays.copyOf(gaussian(new Random(2), 1, INPUT_DIM)[0], 8);
        Map<String, Object> plainAlias = restCall(
                "POST",
                "/docs/_search",
                "{\"size\":3,\"query\":{\"compressed_knn\":{\"field\":\"emb8_alias\",\"k\":3,\"vector\":"
                        + Arrays.toString(eight) + "}}}");
        assertEquals(3, ((List<?>) ((Map<?, ?>) plainAlias.get("hits")).get("hits")).size());
        Map<String, Object> throughAlias = restCall(
                "POST",
                "/docs/_search",
                "{\"size\":3,\"query\":{\"compressed_knn\":{\"field\":\"emb8_alias\",\"k\":3,\"model_id\":\"qa\",\"vector\":"
                        + q32 + "}}}");
        assertEquals(3, ((List<?>) ((Map<?, ?>) throughAlias.get("hits")).get("hits")).size());
        // indices that disagree get the model's largest output: those it fits answer, the others' shards fail
        createIndexWithEmb("eight", 8);
        Map<String, Object> mixed = restCall(
                "POST",
                "/docs,eigh*/_search",
                "{\"size\":3,\"query\":{\"compressed_knn\":{\"field\":\"emb\",\"k\":3,\"model_id\":\"qa\",\"vector\":"
                        + q32 + "}}}");
        assertEquals(3, ((List<?>) ((Map<?, ?>) mixed.get("hits")).get("hits")).size());
        assertTrue(String.valueOf(mixed), ((Number) ((Map<?, ?>) mixed.get("_shards")).get("failed")).intValue() > 0);
        // a model with one output, on a field of another dimension, is named by the shards' error
        storeModel("single", ModelFileTests.linearModel(INPUT_DIM, 16, 0.01f), ModelState.CREATED);
        assertSearchError(
                "/twelve/_search",
                "{\"field\":\"emb\",\"k\":3,\"model_id\":\"single\",\"vector\":" + q32 + "}",
                400,
                "[compressed_knn] [vector] has 16 dimensions as model [single] adapted it (search the field that holds"
                        + " that model's output, or, for a model with several outputs, name the one the field holds in"
                        + " [model_dimension]), but field [emb] has 12");
        // finite weights and a query within the length limit can still overflow float inside the model
        storeModel("overflowing", ModelFileTests.linearModel(INPUT_DIM, 16, 1e30f), ModelState.CREATED);
        float[] large = new float[INPUT_DIM];
        Arrays.fill(large, 1e10f);
        assertSearchError(
                "{\"field\":\"emb\",\"k\":3,\"model_id\":\"overflowing\",\"vector\":" + Arrays.toString(large) + "}",
                400,
                "model [overflowing] gave the non-finite value [NaN] at position 0 for this [vector], of length 5.656854E10");
    }

    /** A model file written into the model index by hand is checked before it serves: a 409 naming the model, never a 500. */
    public void testForgedModelFilesAreRefused() throws IOException {
        setUpModelAndIndex(new Random(randomLong()));
        ModelIndex index = internalCluster().getInstance(ModelIndex.class);
        ModelArtifact sample = ModelFileTests.sampleModel(3, INPUT_DIM, 8, 16);
        byte[] file = ModelFile.toBytes(sample);
        StoredModels.store(index, "truncated", sample, ModelState.CREATED, Arrays.copyOf(file, 20));
        byte[] flipped = file.clone();
        flipped[flipped.length / 2] ^= 1;
        StoredModels.store(index, "flipped", sample, ModelState.CREATED, flipped);
        // a valid file whose shapes are not the ones its document states
        StoredModels.store(
                index,
                "mismatched",
                sample,
                ModelState.CREATED,
                ModelFile.toBytes(ModelFileTests.sampleModel(3, INPUT_DIM, 8, 12)));
        String q32 = Arrays.toString(gaussian(new Random(1), 1, INPUT_DIM)[0]);
        assertSearchError(
                "{\"field\":\"emb\",\"k\":3,\"model_id\":\"truncated\",\"vector\":" + q32 + "}",
                409,
                "model [truncated] cannot be used: model file truncated");
        assertSearchError(
                "{\"field\":\"emb\",\"k\":3,\"model_id\":\"flipped\",\"vector\":" + q32 + "}",
                409,
                "model [flipped] cannot be used: model file corrupted or truncated");
        assertSearchError(
                "{\"field\":\"emb\",\"k\":3,\"model_id\":\"mismatched\",\"vector\":" + q32 + "}",
                409,
                "model [mismatched] cannot be used: its file serves dimensions [6, 12], its document says [8, 16]");
        // a document whose size cannot be a file's, edited by hand
        StoredModels.store(index, "oversized", sample, ModelState.CREATED, file);
        client().prepareUpdate(ModelIndex.NAME, "oversized")
                .setDoc(Map.of(ModelFields.MODEL_SIZE_BYTES, 3_000_000_000L))
                .setRefreshPolicy(WriteRequest.RefreshPolicy.IMMEDIATE)
                .get();
        assertSearchError(
                "{\"field\":\"emb\",\"k\":3,\"model_id\":\"oversized\",\"vector\":" + q32 + "}",
                409,
                "model [oversized] cannot be used: model [oversized] has [model_size_bytes] [3000000000], not a whole number");
    }
}
