package dev.compress.plugin.query;

import dev.compress.plugin.CompressClusterTestCase;
import dev.compress.plugin.inference.EvictModelAction;
import dev.compress.plugin.inference.EvictModelRequest;
import dev.compress.plugin.model.ModelState;
import dev.compress.plugin.query.mask.MaskSpec;
import dev.compress.plugin.query.mask.MaskType;
import dev.compress.training.inference.JavaEncoder;
import dev.compress.training.mask.DimensionMasks;
import dev.compress.training.mask.FeedbackFeatures;
import dev.compress.training.model.LayerSpec;
import dev.compress.training.model.ModelArtifact;
import dev.compress.training.model.ModelFileTests;
import dev.compress.training.model.ModelMetadata;
import dev.compress.training.model.Tensor;
import dev.compress.training.trainer.QueryMaskTrainer;
import java.io.IOException;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.function.IntPredicate;
import java.util.stream.IntStream;
import org.opensearch.action.bulk.BulkRequestBuilder;
import org.opensearch.action.support.WriteRequest;
import org.opensearch.client.ResponseException;
import org.opensearch.common.settings.Settings;
import org.opensearch.index.query.QueryBuilder;
import org.opensearch.index.query.QueryBuilders;
import org.opensearch.test.OpenSearchIntegTestCase;

/**
 * {@code compressed_knn} with {@code mask} on two data nodes and two shards: every mask type gives the
 * hits of brute-force masked scoring with the kept dimensions computed here by hand (float and binary
 * fields, with a filter and rescoring, alone and after {@code model_id}); errors are 4xx naming the parameter.
 */
@OpenSearchIntegTestCase.ClusterScope(scope = OpenSearchIntegTestCase.Scope.SUITE, numDataNodes = 2, numClientNodes = 0)
public class CompressedKnnMaskTests extends CompressClusterTestCase {

    private static final int RAW_DIM = 48;
    private static final int DIM = 32;
    private static final int DOCS = 150;
    private static final int K = 10;

    private ModelArtifact adapter;
    private ModelArtifact maskModel;
    private ModelArtifact dimeMaskModel;
    private ModelArtifact feedbackMaskModel;
    private float[][] docs;

    /** The share of dimensions [qm] chose on validation, served when a learned mask names none. */
    private static final double VALIDATED_RATIO = 0.25;

    /** A mask model as the trainer writes it: one Linear layer scoring each dimension. */
    private static ModelArtifact maskModel(Random random, int dim) {
        return maskModel(random, dim, Map.of());
    }

    private static ModelArtifact maskModel(Random random, int dim, Map<String, Object> trainingParameters) {
        return maskModel(random, dim, dim, trainingParameters);
    }

    /** @param in the predictor's input: the query ({@code dim}) or the query with its feedback (2 x {@code dim}) */
    private static ModelArtifact maskModel(Random random, int in, int dim, Map<String, Object> trainingParameters) {
        float[] weight = new float[dim * in];
        float[] bias = new float[dim];
        for (int i = 0; i < weight.length; i++) {
            weight[i] = (float) random.nextGaussian();
        }
        for (int i = 0; i < dim; i++) {
            bias[i] = (float) random.nextGaussian() * 0.1f;
        }
        List<LayerSpec> layers = List.of(LayerSpec.linear("scores", in, dim));
        Map<String, Tensor> tensors = new LinkedHashMap<>();
        tensors.put("scores.weight", new Tensor("scores.weight", new int[] {dim, in}, weight));
        tensors.put("scores.bias", new Tensor("scores.bias", new int[] {dim}, bias));
        ModelMetadata meta = new ModelMetadata(
                "query_mask",
                in,
                List.of(dim),
                ModelMetadata.OUTPUT_DIMENSION_SCORES,
                ModelMetadata.NORM_NONE,
                1,
                layers,
                Map.of(),
                trainingParameters,
                Map.of());
        return new ModelArtifact(meta, tensors);
    }

    /** Models [qa] (48 -> {16, 32} adapter), [qm] (32-d mask model), [qm16] (16-d mask model); index [docs] of adapted vectors. */
    private void setUpModelsAndIndex(Random random) {
        adapter = ModelFileTests.sampleModel(5, RAW_DIM, 40, DIM);
        maskModel = maskModel(random, DIM, Map.of("validatedRatio", VALIDATED_RATIO));
        for (String id : List.of(
                "qa",
                "qm",
                "qm16",
                "qm-unvalidated",
                "qm-dime",
                "qm-norm",
                "qm-cutoff",
                "qm-fb",
                "qm-wide",
                "qm-fb-nodocs")) {
            client().execute(EvictModelAction.INSTANCE, new EvictModelRequest(id))
                    .actionGet();
        }
        storeModel("qa", adapter, ModelState.CREATED);
        storeModel("qm", maskModel, ModelState.CREATED);
        storeModel("qm16", maskModel(random, 16), ModelState.CREATED);
        storeModel("qm-unvalidated", maskModel(random, DIM), ModelState.CREATED);
        // models whose validation found an unsupervised mask better than their own scores
        dimeMaskModel = maskModel(random, DIM, Map.of("validatedRatio", VALIDATED_RATIO, "validatedMask", "dime_prf"));
        storeModel("qm-dime", dimeMaskModel, ModelState.CREATED);
        storeModel(
                "qm-norm",
                maskModel(random, DIM, Map.of("validatedRatio", VALIDATED_RATIO, "validatedMask", "norm")),
                ModelState.CREATED);
        // a predictor reading the query's first-pass feedback: the mean of its top 2 documents
        feedbackMaskModel = maskModel(
                random,
                FeedbackFeatures.WIDTH * DIM,
                DIM,
                Map.of(
                        "validatedRatio",
                        VALIDATED_RATIO,
                        "validatedMask",
                        "learned",
                        QueryMaskTrainer.FEEDBACK_DOCS,
                        2));
        storeModel("qm-fb", feedbackMaskModel, ModelState.CREATED);
        // a feedback-reading predictor that does not say how many documents its feedback averages
        storeModel("qm-fb-nodocs", maskModel(random, FeedbackFeatures.WIDTH * DIM, DIM, Map.of()), ModelState.CREATED);
        // a predictor whose validation names a mask it never chooses (a damaged or foreign model document)
        storeModel(
                "qm-cutoff",
                maskModel(random, DIM, Map.of("validatedRatio", VALIDATED_RATIO, "validatedMask", "cutoff")),
                ModelState.CREATED);
        // a predictor whose input is neither the query nor the query with the feedback served
        storeModel("qm-wide", maskModel(random, 3 * DIM, DIM, Map.of()), ModelState.CREATED);
        client().admin()
                .indices()
                .prepareCreate("docs")
                .setSettings(Settings.builder()
                        .put("index.number_of_shards", 2)
                        .put("index.number_of_replicas", 0)
                        .put("index.compress", true))
                .setMapping("{\"properties\":{"
                        + "\"emb\":{\"type\":\"compressed_vector\",\"dimension\":32,\"encoding\":\"float\",\"similarity\":\"dot_product\"},"
                        + "\"embb\":{\"type\":\"compressed_vector\",\"dimension\":32,\"encoding\":\"binary\",\"similarity\":\"dot_product\"},"
                        + "\"embc\":{\"type\":\"compressed_vector\",\"dimension\":32,\"encoding\":\"float\",\"similarity\":\"cosine\"},"
                        + "\"emb_alias\":{\"type\":\"alias\",\"path\":\"emb\"},"
                        + "\"tag\":{\"type\":\"integer\"}}}")
                .get();
        docs = new JavaEncoder(adapter, DIM).encode(gaussian(random, DOCS, RAW_DIM));
        BulkRequestBuilder bulk = client().prepareBulk().setRefreshPolicy(WriteRequest.RefreshPolicy.IMMEDIATE);
        for (int i = 0; i < DOCS; i++) {
            // the cosine field holds the same directions at lengths from 0.5 to 3
            float[] scaled = docs[i].clone();
            float length = 0.5f + 2.5f * random.nextFloat();
            for (int j = 0; j < scaled.length; j++) {
                scaled[j] *= length;
            }
            bulk.add(client().prepareIndex("docs")
                    .setId(Integer.toString(i))
                    .setSource(Map.of("emb", docs[i], "embb", docs[i], "embc", scaled, "tag", i % 3)));
        }
        assertFalse(bulk.get().hasFailures());
    }

    /** The k largest of {@code importance} (ties: lower index), ascending. */
    private static int[] top(float[] importance, int k) {
        return IntStream.range(0, importance.length)
                .boxed()
                .sorted(Comparator.comparingDouble((Integer j) -> -importance[j])
                        .thenComparingInt(j -> j))
                .limit(k)
                .mapToInt(Integer::intValue)
                .sorted()
                .toArray();
    }

    private static float maskedDot(float[] q, int[] kept, float[] d) {
        float ip = 0;
        for (int j : kept) {
            ip += q[j] * d[j];
        }
        return ip;
    }

    /** Brute force: documents passing {@code allowed}, by masked dot product, with Lucene's dot-product score. */
    private List<Hit> bruteForce(float[] q, int[] kept, IntPredicate allowed, int k) {
        return IntStream.range(0, DOCS)
                .filter(allowed)
                .boxed()
                .sorted(Comparator.comparingDouble((Integer i) -> -maskedDot(q, kept, docs[i])))
                .limit(k)
                .map(i -> new Hit(Integer.toString(i), Math.max(0, (1 + maskedDot(q, kept, docs[i])) / 2)))
                .toList();
    }

    private List<Hit> search(String node, QueryBuilder query) {
        return Hit.of(
                client(node).prepareSearch("docs").setQuery(query).setSize(K).get());
    }

    private static void assertSameHits(List<Hit> expected, List<Hit> actual) {
        Hit.assertSameHits(expected, actual, 1e-5f);
    }

    private static MaskSpec mask(MaskType type, Double ratio, Integer dimensions, String modelId) {
        return new MaskSpec(type, ratio, dimensions, modelId, 1, 10, 1000, null);
    }

    /** Float field searched exhaustively; binary field with every document a candidate, rescored. */
    private static CompressedKnnQueryBuilder query(
            String field, float[] q, String modelId, MaskSpec mask, QueryBuilder filter) {
        boolean binary = field.equals("embb");
        RescoreOptions rescore = binary ? new RescoreOptions(true, (float) DOCS / K) : null;
        return CompressedKnnQueryBuilder.builder()
                .field(field)
                .vector(q)
                .k(K)
                .numCandidates(binary ? null : DOCS)
                .rescore(rescore)
                .filter(filter)
                .modelId(modelId)
                .mask(mask)
                .build();
    }

    public void testLocalMasksMatchBruteForceOnFloatAndBinaryFields() {
        Random random = new Random(randomLong());
        setUpModelsAndIndex(random);
        List<String> nodes = List.copyOf(internalCluster().getDataNodeNames());
        for (int round = 0; round < 4; round++) {
            float[] q = unit(gaussian(random, 1, DIM)[0]);
            String node = nodes.get(round % nodes.size());
            float[] magnitude = new float[DIM];
            for (int j = 0; j < DIM; j++) {
                magnitude[j] = Math.abs(q[j]);
            }
            int[] norm = top(magnitude, 10); // ratio 0.3 of 32 -> 10
            int[] cutoff = IntStream.range(0, 7).toArray();
            for (String field : List.of("emb", "embb")) {
                assertSameHits(
                        bruteForce(q, norm, i -> true, K),
                        search(node, query(field, q, null, mask(MaskType.NORM, 0.3, null, null), null)));
                assertSameHits(
                        bruteForce(q, cutoff, i -> true, K),
                        search(node, query(field, q, null, mask(MaskType.CUTOFF, null, 7, null), null)));
                // with a filter (and, on the binary field, rescoring)
                assertSameHits(
                        bruteForce(q, norm, i -> i % 3 == 1, K),
                        search(
                                node,
                                query(
                                        field,
                                        q,
                                        null,
                                        mask(MaskType.NORM, 0.3, null, null),
                                        QueryBuilders.termQuery("tag", 1))));
                int[] explicit = {3, 4, 20, 31};
                assertSameHits(
                        bruteForce(q, explicit, i -> true, K),
                        search(node, query(field, q, null, MaskSpec.explicit(explicit), null)));
            }
        }
    }

    /** The mask model's scores W q + b, computed here from its weights. */
    private int[] learnedByHand(float[] q, int k) {
        return learnedByHand(maskModel, q, k);
    }

    /** The model's scores W x + b for input {@code x}, computed here from its weights. */
    private static int[] learnedByHand(ModelArtifact model, float[] x, int k) {
        float[] w = model.tensor("scores.weight").data();
        float[] b = model.tensor("scores.bias").data();
        float[] scores = new float[DIM];
        for (int i = 0; i < DIM; i++) {
            double s = b[i];
            for (int j = 0; j < x.length; j++) {
                s += w[i * x.length + j] * x[j];
            }
            scores[i] = (float) s;
        }
        return top(scores, k);
    }

    public void testLearnedMaskAloneAndAfterTheAdapter() {
        Random random = new Random(randomLong());
        setUpModelsAndIndex(random);
        JavaEncoder adapt = new JavaEncoder(adapter, DIM);
        for (String node : internalCluster().getDataNodeNames()) {
            float[] q = unit(gaussian(random, 1, DIM)[0]);
            for (String field : List.of("emb", "embb")) {
                assertSameHits(
                        bruteForce(q, learnedByHand(q, 10), i -> true, K),
                        search(node, query(field, q, null, mask(MaskType.LEARNED, 0.3, null, "qm"), null)));
                assertSameHits(
                        bruteForce(q, learnedByHand(q, 5), i -> true, K),
                        search(node, query(field, q, null, mask(MaskType.LEARNED, null, 5, "qm"), null)));
                // no ratio and no dimensions: the share the model chose on validation
                assertSameHits(
                        bruteForce(q, learnedByHand(q, DimensionMasks.keep(DIM, VALIDATED_RATIO)), i -> true, K),
                        search(node, query(field, q, null, mask(MaskType.LEARNED, null, null, "qm"), null)));
            }
            // "Adapter + Ours": the raw vector through [qa], then the mask model on the adapted vector
            float[] raw = gaussian(random, 1, RAW_DIM)[0];
            float[] adapted = adapt.encode(new float[][] {raw})[0];
            assertSameHits(
                    bruteForce(adapted, learnedByHand(adapted, 10), i -> i % 3 != 0, K),
                    search(
                            node,
                            query(
                                    "embb",
                                    raw,
                                    "qa",
                                    mask(MaskType.LEARNED, 0.3, null, "qm"),
                                    QueryBuilders.termsQuery("tag", List.of(1, 2)))));
        }
    }

    /** With no size, a learned mask serves the mask its model's validation chose, at the validated share. */
    public void testLearnedMaskWithoutSizeServesTheValidatedMask() {
        Random random = new Random(randomLong());
        setUpModelsAndIndex(random);
        String node = internalCluster().getDataNodeNames().iterator().next();
        int keep = DimensionMasks.keep(DIM, VALIDATED_RATIO);
        for (int round = 0; round < 3; round++) {
            float[] q = unit(gaussian(random, 1, DIM)[0]);
            float[] top = docs[firstPass(q, 1)[0]];
            float[] dime = new float[DIM];
            float[] norm = new float[DIM];
            for (int j = 0; j < DIM; j++) {
                dime[j] = q[j] * top[j];
                norm[j] = Math.abs(q[j]);
            }
            for (String field : List.of("emb", "embb")) {
                assertSameHits(
                        bruteForce(q, top(dime, keep), i -> true, K),
                        search(node, query(field, q, null, mask(MaskType.LEARNED, null, null, "qm-dime"), null)));
                assertSameHits(
                        bruteForce(q, top(norm, keep), i -> true, K),
                        search(node, query(field, q, null, mask(MaskType.LEARNED, null, null, "qm-norm"), null)));
                // a request that names a size gets the model's own scores
                assertSameHits(
                        bruteForce(q, learnedByHand(dimeMaskModel, q, 5), i -> true, K),
                        search(node, query(field, q, null, mask(MaskType.LEARNED, null, 5, "qm-dime"), null)));
            }
        }
    }

    /**
     * A model reading feedback scores [q, sqrt(D) q * p], p the mean of the first pass's top 2 documents (the model's
     * {@code feedbackDocs}), computed here.
     */
    public void testLearnedMaskReadsTheFirstPassFeedback() {
        Random random = new Random(randomLong());
        setUpModelsAndIndex(random);
        String node = internalCluster().getDataNodeNames().iterator().next();
        float scale = (float) Math.sqrt(DIM);
        for (int round = 0; round < 3; round++) {
            float[] q = unit(gaussian(random, 1, DIM)[0]);
            float[] p = mean(firstPass(q, 2));
            float[] x = new float[2 * DIM];
            for (int j = 0; j < DIM; j++) {
                x[j] = q[j];
                x[DIM + j] = scale * q[j] * p[j];
            }
            assertSameHits(
                    bruteForce(q, learnedByHand(feedbackMaskModel, x, 10), i -> true, K),
                    search(node, query("emb", q, null, mask(MaskType.LEARNED, 0.3, null, "qm-fb"), null)));
            // no size: the learned mask at the validated share
            assertSameHits(
                    bruteForce(
                            q,
                            learnedByHand(feedbackMaskModel, x, DimensionMasks.keep(DIM, VALIDATED_RATIO)),
                            i -> true,
                            K),
                    search(node, query("emb", q, null, mask(MaskType.LEARNED, null, null, "qm-fb"), null)));
        }
        // every dimension asked for: the whole query, whatever the feedback
        float[] q = unit(gaussian(random, 1, DIM)[0]);
        assertSameHits(
                bruteForce(q, IntStream.range(0, DIM).toArray(), i -> true, K),
                search(node, query("emb", q, null, mask(MaskType.LEARNED, null, DIM, "qm-fb"), null)));
    }

    /** Ids of the exact unmasked top {@code n} on [emb]. */
    private int[] firstPass(float[] q, int n) {
        int[] all = IntStream.range(0, DIM).toArray();
        return bruteForce(q, all, i -> true, n).stream()
                .mapToInt(h -> Integer.parseInt(h.id()))
                .toArray();
    }

    private float[] mean(int[] rows) {
        float[] m = new float[DIM];
        for (int r : rows) {
            for (int j = 0; j < DIM; j++) {
                m[j] += docs[r][j] / rows.length;
            }
        }
        return m;
    }

    public void testPseudoRelevanceFeedbackMasksFollowTheFirstPass() {
        Random random = new Random(randomLong());
        setUpModelsAndIndex(random);
        String node = internalCluster().getDataNodeNames().iterator().next();
        for (int round = 0; round < 3; round++) {
            float[] q = unit(gaussian(random, 1, DIM)[0]);
            int[] ranked = firstPass(q, 20);

            float[] feedback = mean(Arrays.copyOf(ranked, 2));
            float[] dime = new float[DIM];
            for (int j = 0; j < DIM; j++) {
                dime[j] = q[j] * feedback[j];
            }
            MaskSpec dimeSpec = new MaskSpec(MaskType.DIME_PRF, 0.25, null, null, 2, 10, 1000, null);
            // through a field alias, the feedback vectors are those of the field it names
            for (String field : List.of("emb", "embb", "emb_alias")) {
                assertSameHits(
                        bruteForce(q, top(dime, 8), i -> true, K), search(node, query(field, q, null, dimeSpec, null)));
            }
            // on a cosine field the feedback documents count at unit length, as the field compares them
            List<String> expected = bruteForce(q, top(dime, 8), i -> true, K).stream()
                    .map(Hit::id)
                    .toList();
            assertEquals(
                    expected,
                    search(node, query("embc", q, null, dimeSpec, null)).stream()
                            .map(Hit::id)
                            .toList());

            float[] positive = mean(Arrays.copyOf(ranked, 1));
            float[] negative = mean(Arrays.copyOfRange(ranked, 17, 20));
            float[] eclipse = new float[DIM];
            for (int j = 0; j < DIM; j++) {
                eclipse[j] = q[j] * (positive[j] - negative[j]);
            }
            MaskSpec eclipseSpec = new MaskSpec(MaskType.ECLIPSE_PRF, 0.25, null, null, 1, 3, 20, null);
            for (String field : List.of("emb", "emb_alias")) {
                assertSameHits(
                        bruteForce(q, top(eclipse, 8), i -> true, K),
                        search(node, query(field, q, null, eclipseSpec, null)));
            }
        }
    }

    /**
     * Feedback lists shorter than asked for: Eclipse with fewer first-pass hits than
     * {@code feedback_docs} falls back to DIME over all of them, and DIME asks the first pass for
     * more documents than the index holds (beyond Eclipse's default depth of 1,000).
     */
    public void testShortFeedbackListsFallBack() {
        Random random = new Random(randomLong());
        setUpModelsAndIndex(random);
        String node = internalCluster().getDataNodeNames().iterator().next();
        float[] q = unit(gaussian(random, 1, DIM)[0]);
        int[] all = IntStream.range(0, DIM).toArray();
        Set<String> three = Set.of("3", "14", "15");
        int[] ranked = bruteForce(q, all, i -> three.contains(Integer.toString(i)), 3).stream()
                .mapToInt(h -> Integer.parseInt(h.id()))
                .toArray();
        float[] feedback = mean(ranked);
        float[] dime = new float[DIM];
        for (int j = 0; j < DIM; j++) {
            dime[j] = q[j] * feedback[j];
        }
        MaskSpec eclipse = new MaskSpec(MaskType.ECLIPSE_PRF, 0.25, null, null, 5, 10, 1000, null);
        QueryBuilder filter = QueryBuilders.idsQuery().addIds(three.toArray(String[]::new));
        assertSameHits(
                bruteForce(q, top(dime, 8), i -> three.contains(Integer.toString(i)), K),
                search(node, query("emb", q, null, eclipse, filter)));

        float[] everything = mean(IntStream.range(0, DOCS).toArray());
        float[] deep = new float[DIM];
        for (int j = 0; j < DIM; j++) {
            deep[j] = q[j] * everything[j];
        }
        MaskSpec dimeDeep = new MaskSpec(MaskType.DIME_PRF, 0.25, null, null, 5_000, 10, 1000, null);
        assertSameHits(bruteForce(q, top(deep, 8), i -> true, K), search(node, query("emb", q, null, dimeDeep, null)));
    }

    /** A first pass cannot see a point in time's snapshot, so PRF masks and models reading feedback refuse one. */
    public void testFeedbackMasksRefuseAPointInTime() throws IOException {
        setUpModelsAndIndex(new Random(randomLong()));
        String pit = (String) restCall("POST", "/docs/_search/point_in_time?keep_alive=1m", null)
                .get("pit_id");
        try {
            String knn =
                    "{\"field\":\"emb\",\"k\":3,\"vector\":" + Arrays.toString(unit(gaussian(new Random(2), 1, DIM)[0]))
                            + ",\"mask\":{\"type\":\"dime_prf\",\"ratio\":0.5}}";
            String body = restError(
                    400,
                    "POST",
                    "/_search",
                    "{\"pit\":{\"id\":\"" + pit + "\"},\"query\":{\"compressed_knn\":" + knn + "}}");
            assertTrue(
                    body,
                    body.contains(
                            "[mask] type [dime_prf] runs a first-pass search and cannot be used with a point in time"));
            String learned = knn.replace("\"dime_prf\"", "\"learned\",\"model_id\":\"qm-fb\"");
            body = restError(
                    400,
                    "POST",
                    "/_search",
                    "{\"pit\":{\"id\":\"" + pit + "\"},\"query\":{\"compressed_knn\":" + learned + "}}");
            assertTrue(
                    body,
                    body.contains(
                            "[mask] type [learned] runs a first-pass search and cannot be used with a point in time"));
            String norm = knn.replace("dime_prf", "norm");
            assertEquals(
                    3,
                    ((List<?>) ((Map<?, ?>) restCall(
                                                    "POST",
                                                    "/_search",
                                                    "{\"size\":3,\"pit\":{\"id\":\"" + pit
                                                            + "\"},\"query\":{\"compressed_knn\":" + norm + "}}")
                                            .get("hits"))
                                    .get("hits"))
                            .size());
        } finally {
            // an open point in time holds search contexts, which the framework checks are all released
            restCall("DELETE", "/_search/point_in_time", "{\"pit_id\":[\"" + pit + "\"]}");
        }
    }

    /**
     * A PRF first pass that fails on some shards fails the search, where the same search without a
     * mask, or with a mask that needs no first pass, answers with partial results.
     */
    public void testFeedbackMaskFailsWhenItsFirstPassFailsOnAShard() throws IOException {
        setUpModelsAndIndex(new Random(randomLong()));
        client().admin()
                .indices()
                .prepareCreate("other")
                .setSettings(Settings.builder().put("index.number_of_shards", 1).put("index.number_of_replicas", 0))
                .setMapping("{\"properties\":{\"emb\":{\"type\":\"keyword\"}}}")
                .get();
        client().prepareIndex("other")
                .setId("x")
                .setSource(Map.of("emb", "a"))
                .setRefreshPolicy(WriteRequest.RefreshPolicy.IMMEDIATE)
                .get();
        String knn =
                "{\"field\":\"emb\",\"k\":3,\"vector\":" + Arrays.toString(unit(gaussian(new Random(2), 1, DIM)[0]));
        for (String mask : List.of("", ",\"mask\":{\"type\":\"norm\",\"ratio\":0.5}")) {
            Map<String, Object> partial = restCall(
                    "POST", "/docs,other/_search", "{\"size\":3,\"query\":{\"compressed_knn\":" + knn + mask + "}}}");
            assertEquals(partial.toString(), 1, ((Map<?, ?>) partial.get("_shards")).get("failed"));
            assertEquals(3, ((List<?>) ((Map<?, ?>) partial.get("hits")).get("hits")).size());
        }
        for (String type : List.of("dime_prf", "eclipse_prf")) {
            String body = restError(
                    400,
                    "POST",
                    "/docs,other/_search",
                    "{\"query\":{\"compressed_knn\":" + knn + ",\"mask\":{\"type\":\"" + type + "\",\"ratio\":0.5}}}}");
            assertTrue(body, body.contains("[mask] the first-pass search failed on 1 of 3 shards"));
            assertTrue(body, body.contains("field [emb] is of type [keyword], not [compressed_vector]"));
        }
    }

    private void assertSearchError(String knnBody, int status, String message) throws IOException {
        String body = restError(status, "POST", "/docs/_search", "{\"query\":{\"compressed_knn\":" + knnBody + "}}");
        assertTrue(knnBody + " -> " + body, body.contains(message));
    }

    public void testMaskErrors() throws IOException {
        setUpModelsAndIndex(new Random(randomLong()));
        String q = "\"field\":\"emb\",\"k\":3,\"vector\":" + Arrays.toString(unit(gaussian(new Random(2), 1, DIM)[0]));
        assertSearchError(
                "{" + q + ",\"mask\":{\"type\":\"norm\",\"ratio\":0}}",
                400,
                "[mask.ratio] must be in (0, 1], got [0.0]");
        assertSearchError(
                "{" + q + ",\"mask\":{\"type\":\"norm\",\"ratio\":1.5}}",
                400,
                "[mask.ratio] must be in (0, 1], got [1.5]");
        assertSearchError(
                "{" + q + ",\"mask\":{\"type\":\"top\",\"ratio\":0.5}}",
                400,
                "[mask.type] must be one of [learned, norm, cutoff, dime_prf, eclipse_prf, explicit], got [top]");
        assertSearchError("{" + q + ",\"mask\":{\"ratio\":0.5}}", 400, "[mask] requires [type]");
        assertSearchError(
                "{" + q + ",\"mask\":{\"type\":\"norm\"}}",
                400,
                "[mask] type [norm] needs exactly one of [ratio] and [dimensions]");
        assertSearchError(
                "{" + q + ",\"mask\":{\"type\":\"norm\",\"ratio\":0.5,\"bogus\":1}}",
                400,
                "[mask] has unknown parameter [bogus]");
        assertSearchError(
                "{" + q + ",\"mask\":{\"type\":\"learned\",\"ratio\":0.5}}",
                400,
                "[mask] type [learned] requires [mask.model_id]");
        assertSearchError(
                "{" + q + ",\"mask\":{\"type\":\"learned\",\"model_id\":\"qm\",\"ratio\":0.5,\"dimensions\":3}}",
                400,
                "[mask] type [learned] takes one of [ratio] and [dimensions], not both");
        assertSearchError(
                "{" + q + ",\"mask\":{\"type\":\"learned\",\"model_id\":\"qm-unvalidated\"}}",
                400,
                "[mask] model [qm-unvalidated] was trained before ratios were validated: give [mask.ratio] or [mask.dimensions]");
        assertSearchError(
                "{" + q + ",\"mask\":{\"type\":\"learned\",\"model_id\":\"qm-cutoff\"}}",
                400,
                "[mask.model_id] model [qm-cutoff] names the validated mask [cutoff], which validation never chooses"
                        + " (it chooses one of [learned, norm, dime_prf, eclipse_prf]): train it again");
        assertSearchError(
                "{" + q + ",\"mask\":{\"type\":\"norm\",\"dimensions\":40}}",
                400,
                "[mask.dimensions] [40] exceeds the query vector's 32 dimensions");
        assertSearchError(
                "{" + q + ",\"mask\":{\"type\":\"norm\",\"ratio\":0.5,\"feedback_docs\":2}}",
                400,
                "[mask.feedback_docs] is only for types [dime_prf] and [eclipse_prf], not [norm]");
        assertSearchError(
                "{" + q + ",\"mask\":{\"type\":\"explicit\",\"kept\":[1,40]}}",
                400,
                "[mask.kept] keeps dimension 40 but field [emb] has 32, numbered 0 to 31");
        assertSearchError(
                "{" + q + ",\"mask\":{\"type\":\"learned\",\"model_id\":\"qm16\",\"ratio\":0.5}}",
                400,
                "[mask.model_id] model [qm16] masks 16 dimensions but the query vector has 32");
        assertSearchError(
                "{" + q + ",\"mask\":{\"type\":\"learned\",\"model_id\":\"qm-wide\",\"ratio\":0.5}}",
                400,
                "[mask.model_id] model [qm-wide] reads 96 values per query, neither the query's 32 nor the 64 of the"
                        + " query with its first-pass feedback: train it again");
        assertSearchError(
                "{" + q + ",\"mask\":{\"type\":\"learned\",\"model_id\":\"qm-fb-nodocs\",\"ratio\":0.5}}",
                400,
                "[mask.model_id] model [qm-fb-nodocs] reads first-pass feedback but its training parameter"
                        + " [feedbackDocs] is [null], not a number of documents in [1, 10000]");
        assertSearchError(
                "{" + q + ",\"mask\":{\"type\":\"learned\",\"model_id\":\"qa\",\"ratio\":0.5}}",
                400,
                "[mask.model_id] model [qa] outputs [embedding], not [dimension_scores]: it is not a mask model");
        assertSearchError(
                "{" + q + ",\"mask\":{\"type\":\"learned\",\"model_id\":\"nope\",\"ratio\":0.5}}",
                404,
                "model [nope] does not exist");
        assertSearchError(
                "{" + q
                        + ",\"mask\":{\"type\":\"eclipse_prf\",\"ratio\":0.5,\"negative_docs\":5,\"negative_depth\":4}}",
                400,
                "[mask.negative_depth] must be in [feedback_docs + negative_docs = 6, 10000], got [4]");
        assertSearchError(
                "{" + q
                        + ",\"mask\":{\"type\":\"eclipse_prf\",\"ratio\":0.5,\"feedback_docs\":9000,\"negative_docs\":2000}}",
                400,
                "[mask.feedback_docs] + [mask.negative_docs] must be at most 10000 (the negatives are taken below the "
                        + "feedback documents), got [9000] + [2000]");
        // values of the wrong JSON type name the parameter (the parser's own getters would answer 500 for null, arrays
        // and objects)
        assertSearchError(
                "{" + q + ",\"mask\":{\"type\":null,\"ratio\":0.5}}", 400, "[mask.type] must be a string, got [null]");
        assertSearchError(
                "{" + q + ",\"mask\":{\"type\":\"learned\",\"model_id\":[\"qm\"],\"ratio\":0.5}}",
                400,
                "[mask.model_id] must be a string, got an array");
        assertSearchError(
                "{" + q + ",\"mask\":{\"type\":\"norm\",\"ratio\":\"most\"}}",
                400,
                "[mask.ratio] must be a number, got the string [most]");
        assertSearchError(
                "{" + q + ",\"mask\":{\"type\":\"norm\",\"ratio\":true}}",
                400,
                "[mask.ratio] must be a number, got [true]");
        assertSearchError(
                "{" + q + ",\"mask\":{\"type\":\"norm\",\"dimensions\":1e12}}",
                400,
                "[mask.dimensions] must be a whole number from -2147483648 to 2147483647, got [1.0E12]");
        assertSearchError(
                "{" + q + ",\"mask\":{\"type\":\"norm\",\"dimensions\":8.5}}",
                400,
                "[mask.dimensions] must be a whole number, got [8.5]");
        // whole numbers written as doubles (all some clients have) are counts all the same
        restCall(
                "POST",
                "/docs/_search",
                "{\"query\":{\"compressed_knn\":{" + q.replace("\"k\":3", "\"k\":3.0")
                        + ",\"mask\":{\"type\":\"norm\",\"dimensions\":8.0}}}}");
        assertSearchError(
                "{" + q + ",\"mask\":{\"type\":\"explicit\",\"kept\":[1,{}]}}",
                400,
                "[mask.kept] must be a number, got an object");
        assertSearchError("{\"field\":null,\"k\":3,\"vector\":[1]}", 400, "[field] must be a string, got [null]");
        assertSearchError("{" + q.replace("\"k\":3", "\"k\":null") + "}", 400, "[k] must be a number, got [null]");
        assertSearchError("{" + q + ",\"_name\":{\"a\":1}}", 400, "[_name] must be a string, got an object");
        assertSearchError(
                "{" + q + ",\"rescore\":{\"oversample_factor\":null}}",
                400,
                "[rescore.oversample_factor] must be a number, got [null]");
        assertSearchError(
                "{" + q + ",\"mask\":\"norm\"}",
                400,
                "[compressed_knn] [mask] must be an object, got the string [norm]");
        assertSearchError(
                "{" + q + ",\"rescore\":\"yes\"}",
                400,
                "[compressed_knn] [rescore] must be true, false or {\\\"oversample_factor\\\": f}, got the string [yes]");
    }

    /** A shard reads an alias filter alone: a mask that a search resolves first cannot be one, and is a 400. */
    public void testAMaskThatASearchResolvesCannotFilterAnAlias() throws IOException {
        setUpModelsAndIndex(new Random(randomLong()));
        String vector = Arrays.toString(unit(gaussian(new Random(3), 1, DIM)[0]));
        for (String mask : List.of(
                "{\"type\":\"learned\",\"model_id\":\"qm\",\"ratio\":0.5}", "{\"type\":\"dime_prf\",\"ratio\":0.5}")) {
            String filter =
                    "{\"compressed_knn\":{\"field\":\"emb\",\"k\":3,\"vector\":" + vector + ",\"mask\":" + mask + "}}";
            ResponseException e = expectThrows(ResponseException.class, () -> {
                restCall(
                        "POST",
                        "/_aliases",
                        "{\"actions\":[{\"add\":{\"index\":\"docs\",\"alias\":\"masked\"," + "\"filter\":" + filter
                                + "}}]}");
                restCall("POST", "/masked/_search", "{\"query\":{\"match_all\":{}}}");
            });
            String body = new String(
                    e.getResponse().getEntity().getContent().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
            assertEquals(body, 400, e.getResponse().getStatusLine().getStatusCode());
            // OpenSearch refuses the alias when it rewrites the filter; a shard reading it alone would refuse it too
            assertTrue(
                    body,
                    body.contains("failed to parse filter for alias [masked]")
                            || body.contains("cannot be used where a shard reads the query alone"));
        }
    }
}
