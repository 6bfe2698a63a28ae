package dev.compress.bench;

import dev.compress.plugin.CompressPlugin;
import dev.compress.plugin.inference.StoredModels;
import dev.compress.plugin.model.ModelIndex;
import dev.compress.plugin.model.ModelState;
import dev.compress.plugin.query.CompressedKnnQueryBuilder;
import dev.compress.training.inference.JavaEncoder;
import dev.compress.training.model.ModelArtifact;
import dev.compress.training.model.ModelFileTests;

import org.opensearch.action.bulk.BulkRequestBuilder;
import org.opensearch.action.bulk.BulkResponse;
import org.opensearch.common.settings.Settings;
import org.opensearch.common.xcontent.XContentType;
import org.opensearch.core.common.bytes.BytesArray;
import org.opensearch.index.query.QueryBuilder;
import org.opensearch.plugins.Plugin;
import org.opensearch.test.OpenSearchIntegTestCase;
import org.opensearch.transport.Netty4ModulePlugin;

import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;

import static org.opensearch.test.hamcrest.OpenSearchAssertions.assertAcked;

/**
 * Rough figures for the ingest and query targets on the in-JVM two-node cluster (not a timed test:
 * run with {@code mvn test -Dtest=IngestQueryBenchmark}): bulk throughput through the
 * {@code compress} pipeline (384 -> 64 adapter) against the same documents sent with the 64-d
 * vectors already computed, and the p50 a query pays for {@code model_id} (cached model).
 */
@OpenSearchIntegTestCase.ClusterScope(scope = OpenSearchIntegTestCase.Scope.SUITE, numDataNodes = 2, numClientNodes = 0)
public class IngestQueryBenchmark extends OpenSearchIntegTestCase {

    private static final int DIM = 384;
    private static final int DOCS = Integer.getInteger("bench.docs", 20_000);
    private static final int BULK = 500;
    private static final int QUERIES = 500;

    @Override
    protected boolean addMockHttpTransport() {
        return false;
    }

    @Override
    protected Collection<Class<? extends Plugin>> nodePlugins() {
        return List.of(CompressPlugin.class, Netty4ModulePlugin.class);
    }

    private void createIndex(String name) {
        client().admin()
            .indices()
            .prepareCreate(name)
            .setSettings(Settings.builder().put("index.number_of_shards", 2).put("index.number_of_replicas", 0))
            .setMapping("{\"dynamic\":false,\"properties\":{\"emb\":{\"type\":\"compressed_vector\",\"dimension\":64,\"encoding\":\"binary\"}}}")
            .get();
    }

    /** Documents per second over the whole corpus; {@code adapted} null sends raw vectors through the pipeline. */
    private double bulkRate(String index, float[][] raw, float[][] adapted) {
        long start = System.nanoTime();
        for (int from = 0; from < raw.length; from += BULK) {
            BulkRequestBuilder bulk = client().prepareBulk();
            for (int i = from; i < Math.min(raw.length, from + BULK); i++) {
                if (adapted == null) {
                    bulk.add(client().prepareIndex(index).setSource(Map.of("raw", raw[i])).setPipeline("adapt"));
                } else {
                    bulk.add(client().prepareIndex(index).setSource(Map.of("raw", raw[i], "emb", adapted[i])));
                }
            }
            BulkResponse response = bulk.get();
            assertFalse(response.buildFailureMessage(), response.hasFailures());
        }
        return raw.length / ((System.nanoTime() - start) / 1e9);
    }

    private double p50Millis(List<QueryBuilder> queries) {
        double[] millis = new double[queries.size()];
        for (int i = 0; i < millis.length; i++) {
            long start = System.nanoTime();
            client().prepareSearch("through-pipeline").setQuery(queries.get(i)).setSize(10).get();
            millis[i] = (System.nanoTime() - start) / 1e6;
        }
        Arrays.sort(millis);
        return millis[millis.length / 2];
    }

    public void testIngestAndQueryCost() {
        ModelArtifact artifact = ModelFileTests.sampleModel(3, DIM, 1024, 64);
        StoredModels.store(internalCluster().getInstance(ModelIndex.class), "bench", artifact, ModelState.CREATED);
        assertAcked(
            client().admin()
                .cluster()
                .preparePutPipeline(
                    "adapt",
                    new BytesArray("{\"processors\":[{\"compress\":{\"model_id\":\"bench\",\"field\":\"raw\",\"target_field\":\"emb\"}}]}"),
                    XContentType.JSON
                )
                .get()
        );
        Random random = new Random(1);
        float[][] raw = new float[DOCS][DIM];
        for (float[] v : raw) {
            for (int j = 0; j < DIM; j++) {
                v[j] = (float) random.nextGaussian();
            }
        }
        JavaEncoder encoder = new JavaEncoder(artifact, 64);
        float[][] adapted = encoder.encode(raw);
        createIndex("warmup");
        bulkRate("warmup", Arrays.copyOf(raw, 2000), null);
        bulkRate("warmup", Arrays.copyOf(raw, 2000), Arrays.copyOf(adapted, 2000));
        createIndex("precomputed");
        createIndex("through-pipeline");
        double without = bulkRate("precomputed", raw, adapted);
        double with = bulkRate("through-pipeline", raw, null);
        client().admin().indices().prepareRefresh("through-pipeline").get();

        List<QueryBuilder> byHand = new java.util.ArrayList<>();
        List<QueryBuilder> withModel = new java.util.ArrayList<>();
        for (int i = 0; i < QUERIES; i++) {
            float[] q = raw[random.nextInt(DOCS)].clone();
            q[i % DIM] += 1f;
            byHand.add(new CompressedKnnQueryBuilder("emb", encoder.encode(q), 10, null, null, null, false));
            withModel.add(new CompressedKnnQueryBuilder("emb", q, 10, null, null, null, false, "bench", null));
        }
        p50Millis(byHand.subList(0, 100));
        p50Millis(withModel.subList(0, 100));
        double p50Hand = p50Millis(byHand);
        double p50Model = p50Millis(withModel);
        logger.info(String.format(Locale.ROOT,
            "BENCH model %d params; bulk docs/s without processor %.0f, through compress %.0f, ratio %.2f; query p50 ms pre-adapted %.3f, model_id %.3f, added %.3f",
            DIM * 1024 + 1024 * 4 + 1024 * 64 + 64 + 1024, without, with, with / without, p50Hand, p50Model, p50Model - p50Hand));
    }
}
