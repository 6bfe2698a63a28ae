package dev.compress.plugin.durability;

import static org.opensearch.test.hamcrest.OpenSearchAssertions.assertAcked;

import dev.compress.codec.binary.BinaryHnswVectorsFormat;
import dev.compress.codec.floats.FloatHnswVectorsFormat;
import dev.compress.plugin.CompressClusterTestCase;
import dev.compress.plugin.model.ModelState;
import dev.compress.plugin.query.CompressedKnnQueryBuilder;
import dev.compress.plugin.query.Hit;
import dev.compress.plugin.query.RescoreOptions;
import dev.compress.training.inference.CpuEncoders;
import dev.compress.training.inference.Encoder;
import dev.compress.training.model.ModelArtifact;
import dev.compress.training.model.ModelFileTests;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.apache.lucene.index.VectorSimilarityFunction;
import org.opensearch.action.get.MultiGetItemResponse;
import org.opensearch.action.get.MultiGetRequestBuilder;
import org.opensearch.common.settings.Settings;
import org.opensearch.common.unit.TimeValue;
import org.opensearch.common.xcontent.XContentType;
import org.opensearch.core.common.bytes.BytesArray;
import org.opensearch.index.query.QueryBuilder;
import org.opensearch.index.query.QueryBuilders;
import org.opensearch.test.OpenSearchIntegTestCase;
import org.opensearch.transport.client.Client;

/**
 * Replica recovery and a rolling restart while documents flow in through a {@code compress} pipeline:
 * three data nodes (each also cluster-manager eligible) are restarted one by one, waiting for green
 * in between as an operator would, and then a second replica is added, all while a thread on a
 * separate ingest node keeps bulk-indexing. Afterwards no acknowledged document is missing, the index
 * holds nothing that was not sent, primaries and replicas answer every search with the same ids and
 * scores, those answers are the exact nearest neighbours of what was sent, and CheckIndex finds
 * every copy clean (each shard also runs it whenever it starts: {@code index.shard.check_on_startup}).
 *
 * <p>{@code -Dcompress.test.restart.rounds=N} restarts every node N times (default 1, under a minute).
 */
@OpenSearchIntegTestCase.ClusterScope(
        scope = OpenSearchIntegTestCase.Scope.TEST,
        numDataNodes = 3,
        numClientNodes = 0,
        supportsDedicatedMasters = false)
public class RollingRestartIngestTests extends CompressClusterTestCase {

    private static final String INDEX = "docs";
    private static final String MODEL = "adapter";
    private static final String PIPELINE = "adapt";
    private static final int INPUT_DIM = 32;
    private static final int ROUNDS = Integer.getInteger("compress.test.restart.rounds", 1);
    /** Documents the ingest must acknowledge between two steps, so that each step happens while it runs. */
    private static final int PROGRESS = 100;
    /** Larger than any segment can grow here, so graph searches visit every document and are exact. */
    private static final int ALL_CANDIDATES = CompressedKnnQueryBuilder.MAX_K;

    public void testNoAcknowledgedDocumentIsLostAndCopiesAnswerAlike() throws Exception {
        ModelArtifact artifact = ModelFileTests.sampleModel(5, INPUT_DIM, 48, 16);
        storeModel(MODEL, artifact, ModelState.CREATED);
        assertAcked(client().admin()
                .cluster()
                .preparePutPipeline(
                        PIPELINE,
                        new BytesArray("{\"processors\":["
                                + "{\"compress\":{\"model_id\":\"" + MODEL
                                + "\",\"field\":\"raw\",\"target_field\":\"emb\"}},"
                                + "{\"compress\":{\"truncate_to\":16,\"field\":\"raw\",\"target_field\":\"bits\"}}]}"),
                        XContentType.JSON)
                .get());
        assertAcked(client().admin()
                .indices()
                .prepareCreate(INDEX)
                .setSettings(Settings.builder()
                        .put("index.number_of_shards", 2)
                        .put("index.number_of_replicas", 1)
                        .put("index.compress", true)
                        .put("index.shard.check_on_startup", true))
                .setMapping("{\"_source\":{\"excludes\":[\"raw\"]},\"properties\":{"
                        + "\"emb\":{\"type\":\"compressed_vector\",\"dimension\":16,\"encoding\":\"float\"},"
                        + "\"bits\":{\"type\":\"compressed_vector\",\"dimension\":16,\"encoding\":\"binary\"}}}"));
        ensureGreen(INDEX);
        // the bulk client's node is never restarted: failures then come from the shards, not the connection
        String ingestNode = internalCluster()
                .startNode(Settings.builder().putList("node.roles", "ingest").build());
        Client ingestClient = internalCluster().client(ingestNode);

        BackgroundIngest ingest = new BackgroundIngest(ingestClient, INDEX, PIPELINE, INPUT_DIM, 10, 100, randomLong());
        try {
            awaitAcked(ingest, PROGRESS);
            List<String> dataNodes = List.copyOf(internalCluster().getDataNodeNames());
            for (int round = 0; round < ROUNDS; round++) {
                for (String node : dataNodes) {
                    int before = ingest.ackedCount();
                    internalCluster().restartNode(node);
                    ensureGreen(TimeValue.timeValueMinutes(2), INDEX);
                    awaitAcked(ingest, before + PROGRESS);
                }
            }
            int before = ingest.ackedCount();
            assertAcked(client().admin()
                    .indices()
                    .prepareUpdateSettings(INDEX)
                    .setSettings(Settings.builder().put("index.number_of_replicas", 2)));
            ensureGreen(TimeValue.timeValueMinutes(2), INDEX);
            awaitAcked(ingest, before + PROGRESS);
        } finally {
            ingest.close();
        }
        logger.info(
                "ingest during restarts: {} sent, {} acknowledged, {} items and {} bulks failed",
                ingest.sent().size(),
                ingest.ackedCount(),
                ingest.failedItems(),
                ingest.failedBulks());
        refresh(INDEX);

        Set<String> present = presentDocuments(ingest);
        assertEquals(
                "documents in the index",
                present.size(),
                client().prepareSearch(INDEX)
                        .setSize(0)
                        .setTrackTotalHits(true)
                        .get()
                        .getHits()
                        .getTotalHits()
                        .value());

        Map<String, float[]> sent = ingest.sent();
        Encoder encoder = CpuEncoders.forServing(artifact, 16);
        Map<String, float[]> emb = new HashMap<>();
        Map<String, float[]> bits = new HashMap<>();
        for (String id : present) {
            emb.put(id, encoder.encode(sent.get(id)));
            bits.put(id, Arrays.copyOf(sent.get(id), 16));
        }
        for (float[] q : gaussian(new Random(randomLong()), 5, INPUT_DIM)) {
            assertCopiesAgreeOnTheExactAnswer(knn("emb", q).modelId(MODEL).build(), exactTop10(encoder.encode(q), emb));
            assertCopiesAgreeOnTheExactAnswer(
                    knn("bits", Arrays.copyOf(q, 16))
                            .rescore(new RescoreOptions(true, RescoreOptions.MAX_OVERSAMPLE))
                            .build(),
                    exactTop10(Arrays.copyOf(q, 16), bits));
        }

        assertEquals(
                Set.of(BinaryHnswVectorsFormat.NAME, FloatHnswVectorsFormat.NAME),
                CommittedShards.assertCheckIndexClean(internalCluster(), INDEX, createTempDir()));
    }

    private static void awaitAcked(BackgroundIngest ingest, int count) throws Exception {
        assertBusy(
                () -> assertTrue(
                        "acknowledged " + ingest.ackedCount() + " of " + count + " (" + ingest.failedItems()
                                + " items failed)",
                        ingest.ackedCount() >= count),
                1,
                TimeUnit.MINUTES);
    }

    /**
     * Every acknowledged document, checked to be there, plus those sent whose write failed but took
     * effect anyway (a failure answer does not prove the write was not applied).
     */
    private static Set<String> presentDocuments(BackgroundIngest ingest) {
        Set<String> acked = ingest.acked();
        assertEquals(
                "acknowledged documents found",
                acked.size(),
                client().prepareSearch(INDEX)
                        .setQuery(QueryBuilders.idsQuery().addIds(acked.toArray(String[]::new)))
                        .setSize(0)
                        .setTrackTotalHits(true)
                        .get()
                        .getHits()
                        .getTotalHits()
                        .value());
        Set<String> present = new HashSet<>(acked);
        List<String> unacked = ingest.sent().keySet().stream()
                .filter(id -> acked.contains(id) == false)
                .toList();
        if (unacked.isEmpty() == false) {
            MultiGetRequestBuilder get = client().prepareMultiGet();
            unacked.forEach(id -> get.add(INDEX, id));
            for (MultiGetItemResponse item : get.get().getResponses()) {
                if (item.isFailed() == false && item.getResponse().isExists()) {
                    present.add(item.getId());
                }
            }
        }
        return present;
    }

    private static CompressedKnnQueryBuilder.Builder knn(String field, float[] vector) {
        return CompressedKnnQueryBuilder.builder()
                .field(field)
                .vector(vector)
                .k(10)
                .numCandidates(ALL_CANDIDATES);
    }

    /** The ten nearest by Lucene's cosine score, computed over every document in the index. */
    private static List<Hit> exactTop10(float[] query, Map<String, float[]> vectors) {
        List<Hit> all = new ArrayList<>();
        vectors.forEach((id, v) -> all.add(new Hit(id, VectorSimilarityFunction.COSINE.compare(query, v))));
        all.sort(Comparator.comparing((Function<Hit, Float>) Hit::score).reversed());
        return all.subList(0, 10);
    }

    private static void assertCopiesAgreeOnTheExactAnswer(QueryBuilder query, List<Hit> exact) {
        List<Hit> primaries = Hit.of(client().prepareSearch(INDEX)
                .setPreference("_primary")
                .setQuery(query)
                .setSize(10)
                .get());
        List<Hit> replicas = Hit.of(client().prepareSearch(INDEX)
                .setPreference("_replica")
                .setQuery(query)
                .setSize(10)
                .get());
        Hit.assertSameHits(primaries, replicas, 1e-6f);
        // the model ran on the node and the test side: its vectors agree to within float rounding
        Hit.assertSameHits(exact, primaries, 1e-5f);
    }
}
