package dev.compress.plugin.train;

import dev.compress.plugin.CompressPlugin;
import dev.compress.plugin.model.action.MapResponse;
import dev.compress.plugin.model.action.ModelActions;
import dev.compress.plugin.model.action.ModelIdRequest;

import org.opensearch.ExceptionsHelper;
import org.opensearch.action.bulk.BulkRequestBuilder;
import org.opensearch.action.support.WriteRequest;
import org.opensearch.common.settings.Settings;
import org.opensearch.core.rest.RestStatus;
import org.opensearch.plugins.Plugin;
import org.opensearch.test.OpenSearchIntegTestCase;
import org.opensearch.transport.client.Client;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;

/**
 * {@code compress.training.max_jobs_per_node} holds for requests that arrive together: the node
 * admits jobs one slot at a time, so of requests sent at the same instant to a node with one slot
 * exactly one is accepted and the rest get 429, none waits in the pool's queue as {@code training};
 * the slot comes back when the job ends and when its model cannot be written.
 */
@OpenSearchIntegTestCase.ClusterScope(scope = OpenSearchIntegTestCase.Scope.TEST, numDataNodes = 1, numClientNodes = 0)
public class TrainingAdmissionTests extends OpenSearchIntegTestCase {

    private static final int DIM = 32;
    private static final int DOCS = 2000;
    private static final int QUERIES = 100;

    @Override
    protected Collection<Class<? extends Plugin>> nodePlugins() {
        return List.of(CompressPlugin.class);
    }

    @Override
    protected Settings nodeSettings(int nodeOrdinal) {
        return Settings.builder().put(super.nodeSettings(nodeOrdinal)).put("compress.training.max_jobs_per_node", 1).build();
    }

    /** A corpus of random vectors and queries near three documents each, which they judge relevant. */
    private static void loadData(Client client, Random random) {
        Settings one = Settings.builder().put("index.number_of_shards", 1).put("index.number_of_replicas", 0).put("index.compress", true).build();
        String vector = "{\"type\":\"compressed_vector\",\"dimension\":" + DIM + ",\"encoding\":\"float\"}";
        client.admin().indices().prepareCreate("corpus").setSettings(one).setMapping("{\"properties\":{\"vector\":" + vector + "}}").get();
        client.admin().indices().prepareCreate("queries").setSettings(one)
            .setMapping("{\"properties\":{\"query_id\":{\"type\":\"keyword\"},\"vector\":" + vector + "}}").get();
        client.admin().indices().prepareCreate("judgments").setSettings(one)
            .setMapping("{\"properties\":{\"query_id\":{\"type\":\"keyword\"},\"doc_id\":{\"type\":\"keyword\"},\"rating\":{\"type\":\"integer\"}}}").get();
        float[][] docs = new float[DOCS][];
        BulkRequestBuilder bulk = client.prepareBulk().setRefreshPolicy(WriteRequest.RefreshPolicy.IMMEDIATE);
        for (int i = 0; i < DOCS; i++) {
            docs[i] = gaussian(random, null, 0);
            bulk.add(client.prepareIndex("corpus").setId("d" + i).setSource(Map.of("vector", docs[i])));
        }
        for (int q = 0; q < QUERIES; q++) {
            int first = random.nextInt(DOCS - 3);
            bulk.add(client.prepareIndex("queries").setSource(Map.of("query_id", "q" + q, "vector", gaussian(random, docs[first], 0.3f))));
            for (int j = 0; j < 3; j++) {
                bulk.add(client.prepareIndex("judgments").setSource(Map.of("query_id", "q" + q, "doc_id", "d" + (first + j), "rating", 1 + j % 2)));
            }
        }
        assertFalse(bulk.get().hasFailures());
    }

    /** Standard normal components, or {@code near} plus noise of scale {@code noise}. */
    private static float[] gaussian(Random random, float[] near, float noise) {
        float[] v = new float[DIM];
        for (int j = 0; j < DIM; j++) {
            v[j] = near == null ? (float) random.nextGaussian() : near[j] + noise * (float) random.nextGaussian();
        }
        return v;
    }

    private static Map<String, Object> body(String method, int dims, Map<String, Object> parameters) {
        return Map.of(
            "method", method,
            "dimensions", dims,
            "parameters", parameters,
            "corpus", Map.of("index", "corpus", "vector_field", "vector"),
            "queries", Map.of("index", "queries"),
            "judgments", Map.of("index", "judgments")
        );
    }

    private static MapResponse train(String modelId, Map<String, Object> body) {
        return client().execute(ModelActions.TRAIN, new TrainModelRequest(modelId, body)).actionGet();
    }

    private static Object state(String modelId) {
        return client().execute(ModelActions.GET, new ModelIdRequest(modelId, false)).actionGet().body().get("state");
    }

    public void testRequestsSentTogetherGetOneSlotAndTheRestA429() throws Exception {
        loadData(client(), new Random(random().nextLong()));
        TrainingJobs jobs = internalCluster().getInstance(TrainingJobs.class);
        // long enough to hold its slot well past the moment every request has its answer
        Map<String, Object> slow = body("dive", 8, Map.of("epochs", 1000, "patience", 0));
        int requests = 8;
        CyclicBarrier together = new CyclicBarrier(requests);
        List<Object> answers = new ArrayList<>();
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < requests; i++) {
            String id = "burst-" + i;
            Thread thread = new Thread(() -> {
                Object answer;
                try {
                    together.await(30, TimeUnit.SECONDS);
                    answer = train(id, slow);
                } catch (Exception e) {
                    answer = e;
                }
                synchronized (answers) {
                    answers.add(answer);
                }
            });
            threads.add(thread);
            thread.start();
        }
        for (Thread thread : threads) {
            thread.join(TimeUnit.MINUTES.toMillis(1));
        }
        List<String> accepted = new ArrayList<>();
        for (Object answer : answers) {
            if (answer instanceof MapResponse started) {
                accepted.add((String) started.body().get("model_id"));
            } else {
                Exception e = (Exception) answer;
                assertEquals(ExceptionsHelper.stackTrace(e), RestStatus.TOO_MANY_REQUESTS, ExceptionsHelper.status(e));
                assertTrue(e.getMessage(), e.getMessage().contains("training job(s) ([compress.training.max_jobs_per_node]); retry when one finishes"));
            }
        }
        assertEquals(requests, answers.size());
        assertEquals("accepted: " + accepted, 1, accepted.size());
        for (int i = 0; i < requests; i++) {
            String id = "burst-" + i;
            if (accepted.contains(id) == false) {
                expectThrows(org.opensearch.ResourceNotFoundException.class, () -> state(id));
            }
        }

        // the slot comes back when the job ends
        String running = accepted.get(0);
        client().execute(ModelActions.CANCEL, new ModelIdRequest(running, false)).actionGet();
        assertBusy(() -> assertEquals("failed", state(running)), 2, TimeUnit.MINUTES);
        assertBusy(() -> assertEquals(1, jobs.freeSlots()));

        // and when the model cannot be written: the id exists
        Exception exists = expectThrows(Exception.class, () -> train(running, body("pca", 8, Map.of())));
        assertEquals(RestStatus.CONFLICT, ExceptionsHelper.status(exists));
        assertTrue(exists.getMessage(), exists.getMessage().contains("model [" + running + "] already exists"));
        assertEquals(1, jobs.freeSlots());
        assertEquals("failed", state(running));

        train("after", body("pca", 8, Map.of()));
        assertBusy(() -> assertEquals("created", state("after")), 2, TimeUnit.MINUTES);
        assertBusy(() -> assertEquals(1, jobs.freeSlots()));
    }
}
