package dev.compress.bench;

import static org.opensearch.test.hamcrest.OpenSearchAssertions.assertAcked;

import dev.compress.plugin.CompressClusterTestCase;
import dev.compress.plugin.model.ModelState;
import dev.compress.plugin.query.CompressedKnnQueryBuilder;
import dev.compress.training.inference.CpuEncoders;
import dev.compress.training.inference.Encoder;
import dev.compress.training.model.ModelArtifact;
import dev.compress.training.model.ModelFileTests;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import org.opensearch.action.bulk.BulkRequestBuilder;
import org.opensearch.action.bulk.BulkResponse;
import org.opensearch.common.settings.Settings;
import org.opensearch.common.xcontent.XContentType;
import org.opensearch.core.common.bytes.BytesArray;
import org.opensearch.index.query.QueryBuilder;
import org.opensearch.test.OpenSearchIntegTestCase;

/**
 * Rough figures for the ingest and query targets on the in-JVM two-node cluster (not a timed test:
 * run with {@code mvn test -Dtest=IngestQueryClusterBench}): bulk throughput through the
 * {@code compress} pipeline (384 -> 64 adapter) against the same documents sent with the 64-d
 * vectors already computed, and the p50 a query pays for {@code model_id} (cached model).
 */
@OpenSearchIntegTestCase.ClusterScope(scope = OpenSearchIntegTestCase.Scope.SUITE, numDataNodes = 2, numClientNodes = 0)
public class IngestQueryClusterBench extends CompressClusterTestCase {

    private static final int DIM = 384;
    private static final int DOCS = Integer.getInteger("bench.docs", 20_000);
    private static final int BULK = 500;
    private static final int QUERIES = 500;

    private void createIndex(String name) {
        client().admin()
                .indices()
                .prepareCreate(name)
                .setSettings(Settings.builder()
                        .put("index.number_of_shards", 2)
                        .put("index.number_of_replicas", 0)
                        .put("index.compress", true))
                .setMapping(
                        "{\"dynamic\":false,\"properties\":{\"emb\":{\"type\":\"compressed_vector\",\"dimension\":64,\"encoding\":\"binary\"}}}")
                .get();
    }

    /** Documents per second over the whole corpus; {@code adapted} null sends raw vectors through {@code pipeline}. */
    private double bulkRate(String index, String pipeline, float[][] raw, float[][] adapted) {
        long start = System.nanoTime();
        for (int from = 0; from < raw.length; from += BULK) {
            BulkRequestBuilder bulk = client().prepareBulk();
            for (int i = from; i < Math.min(raw.length, from + BULK); i++) {
                if (adapted == null) {
                    bulk.add(client().prepareIndex(index)
                            .setSource(Map.of("raw", raw[i]))
                            .setPipeline(pipeline));
                } else {
                    bulk.add(client().prepareIndex(index).setSource(Map.of("raw", raw[i], "emb", adapted[i])));
                }
            }
            BulkResponse response = bulk.get();
            assertFalse(response.buildFailureMessage(), response.hasFailures());
        }
        return raw.length / ((System.nanoTime() - start) / 1e9);
    }

    private double searchMillis(QueryBuilder query) {
        long start = System.nanoTime();
        client().prepareSearch("through-pipeline").setQuery(query).setSize(10).get();
        return (System.nanoTime() - start) / 1e6;
    }

    private static double p50(double[] millis) {
        double[] sorted = millis.clone();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }

    private void putPipeline(String id, String processor) {
        assertAcked(client().admin()
                .cluster()
                .preparePutPipeline(
                        id, new BytesArray("{\"processors\":[{\"compress\":" + processor + "}]}"), XContentType.JSON)
                .get());
    }

    public void testIngestAndQueryCost() {
        ModelArtifact artifact = ModelFileTests.sampleModel(3, DIM, 1024, 64);
        storeModel("bench", artifact, ModelState.CREATED);
        putPipeline("adapt", "{\"model_id\":\"bench\",\"field\":\"raw\",\"target_field\":\"emb\"}");
        putPipeline("truncate", "{\"truncate_to\":64,\"field\":\"raw\",\"target_field\":\"emb\"}");
        Random random = new Random(1);
        float[][] raw = new float[DOCS][DIM];
        for (float[] v : raw) {
            for (int j = 0; j < DIM; j++) {
                v[j] = (float) random.nextGaussian();
            }
        }
        Encoder encoder = CpuEncoders.forServing(artifact, 64);
        encoder.encode(Arrays.copyOf(raw, 2000));
        long encodeStart = System.nanoTime();
        float[][] adapted = encoder.encode(raw);
        double encoderRate = DOCS / ((System.nanoTime() - encodeStart) / 1e9);
        createIndex("warmup");
        bulkRate("warmup", "adapt", Arrays.copyOf(raw, 2000), null);
        bulkRate("warmup", "truncate", Arrays.copyOf(raw, 2000), null);
        bulkRate("warmup", null, Arrays.copyOf(raw, 2000), Arrays.copyOf(adapted, 2000));
        createIndex("precomputed");
        createIndex("truncated");
        createIndex("through-pipeline");
        double without = bulkRate("precomputed", null, raw, adapted);
        double truncated = bulkRate("truncated", "truncate", raw, null);
        double with = bulkRate("through-pipeline", "adapt", raw, null);
        client().admin().indices().prepareRefresh("through-pipeline").get();

        List<QueryBuilder> byHand = new java.util.ArrayList<>();
        List<QueryBuilder> withModel = new java.util.ArrayList<>();
        for (int i = 0; i < QUERIES; i++) {
            float[] q = raw[random.nextInt(DOCS)].clone();
            q[i % DIM] += 1f;
            byHand.add(CompressedKnnQueryBuilder.builder()
                    .field("emb")
                    .vector(encoder.encode(q))
                    .k(10)
                    .build());
            withModel.add(CompressedKnnQueryBuilder.builder()
                    .field("emb")
                    .vector(q)
                    .k(10)
                    .modelId("bench")
                    .build());
        }
        // interleaved, after a warm-up of both kinds, so drift and JIT affect both alike
        double[] hand = new double[QUERIES];
        double[] model = new double[QUERIES];
        for (int round = 0; round < 2; round++) {
            for (int i = 0; i < QUERIES; i++) {
                hand[i] = searchMillis(byHand.get(i));
                model[i] = searchMillis(withModel.get(i));
            }
        }
        logger.info(String.format(
                Locale.ROOT,
                "BENCH %d docs, model %d params (encoder alone %.0f vectors/s on one thread); bulk docs/s: precomputed 64-d %.0f, "
                        + "truncate_to pipeline %.0f (%.2f), compress model pipeline %.0f (%.2f); query p50 ms: pre-adapted %.3f, model_id %.3f, added %.3f",
                DOCS,
                DIM * 1024 + 1024 * 4 + 1024 * 64 + 64,
                encoderRate,
                without,
                truncated,
                truncated / without,
                with,
                with / without,
                p50(hand),
                p50(model),
                p50(model) - p50(hand)));
    }
}
