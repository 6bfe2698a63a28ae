package dev.compress.plugin.train;

import dev.compress.plugin.CompressPlugin;
import dev.compress.plugin.model.action.ModelActions;
import dev.compress.plugin.model.action.ModelIdRequest;
import dev.compress.training.trainer.CorpusPca;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import org.opensearch.ExceptionsHelper;
import org.opensearch.action.bulk.BulkRequestBuilder;
import org.opensearch.action.support.WriteRequest;
import org.opensearch.cluster.service.ClusterService;
import org.opensearch.common.settings.Settings;
import org.opensearch.core.common.breaker.CircuitBreaker;
import org.opensearch.core.rest.RestStatus;
import org.opensearch.plugins.Plugin;
import org.opensearch.test.OpenSearchIntegTestCase;

/**
 * {@code compress.training.max_jobs_per_node} holds for requests that arrive together: the node
 * admits jobs one slot at a time, so of requests sent at the same instant to a node with one slot
 * exactly one is accepted and the rest get 429, none waits in the pool's queue as {@code training};
 * the slot comes back when the job ends and when its model cannot be written. The node's slots
 * decide, not the coordinating node's count of models in {@code training}, which comes from a
 * search that may not yet see a job's final state.
 */
@OpenSearchIntegTestCase.ClusterScope(scope = OpenSearchIntegTestCase.Scope.TEST, numDataNodes = 1, numClientNodes = 0)
public class TrainingAdmissionTests extends OpenSearchIntegTestCase {

    @Override
    protected Collection<Class<? extends Plugin>> nodePlugins() {
        return List.of(CompressPlugin.class);
    }

    @Override
    protected Settings nodeSettings(int nodeOrdinal) {
        return Settings.builder()
                .put(super.nodeSettings(nodeOrdinal))
                .put("compress.training.max_jobs_per_node", 1)
                // the test cluster may choose a noop request breaker, which holds nothing
                .put("indices.breaker.request.type", "memory")
                .build();
    }

    private static TrainModelResponse train(String modelId, Map<String, Object> body) {
        return client().execute(ModelActions.TRAIN, new TrainModelRequest(modelId, body))
                .actionGet();
    }

    private static Object state(String modelId) {
        return client().execute(ModelActions.GET, new ModelIdRequest(modelId, false))
                .actionGet()
                .model()
                .state()
                .jsonName();
    }

    public void testRequestsSentTogetherGetOneSlotAndTheRestA429() throws Exception {
        SyntheticIndices.load(client(), new Random(random().nextLong()));
        // the node that trains: the framework may add a dedicated cluster manager, which has slots too
        TrainingJobs jobs = internalCluster().getDataNodeInstance(TrainingJobs.class);
        // long enough to hold its slot well past the moment every request has its answer
        Map<String, Object> slow = SyntheticIndices.trainBody("dive", 8, Map.of("epochs", 1000, "patience", 0));
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
            if (answer instanceof TrainModelResponse started) {
                accepted.add(started.modelId());
            } else {
                Exception e = (Exception) answer;
                assertEquals(ExceptionsHelper.stackTrace(e), RestStatus.TOO_MANY_REQUESTS, ExceptionsHelper.status(e));
                assertTrue(
                        e.getMessage(),
                        e.getMessage()
                                .contains(
                                        "training job(s) ([compress.training.max_jobs_per_node]); retry when one finishes"));
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

        // an id that exists is a 409 even while every slot is taken: retrying, as a 429 says, cannot help
        String running = accepted.get(0);
        Exception taken = expectThrows(Exception.class, () -> train(running, slow));
        assertEquals(ExceptionsHelper.stackTrace(taken), RestStatus.CONFLICT, ExceptionsHelper.status(taken));

        // the slot comes back when the job ends, before its final state shows: a request sent on seeing it finds the
        // slot free
        client().execute(ModelActions.CANCEL, new ModelIdRequest(running, false))
                .actionGet();
        assertBusy(() -> assertEquals("failed", state(running)), 2, TimeUnit.MINUTES);
        assertEquals(1, jobs.freeSlots());

        // and when the model cannot be written: the id exists (the node is asked directly, as when another request
        // takes the id between the coordinating node's check and the node's write)
        Exception exists = expectThrows(
                Exception.class,
                () -> client().execute(
                                ModelActions.RUN_TRAINING,
                                new TrainModelRequest(
                                        running,
                                        SyntheticIndices.trainBody("pca", 8, Map.of()),
                                        SyntheticIndices.DIM,
                                        System.currentTimeMillis()))
                        .actionGet());
        assertEquals(RestStatus.CONFLICT, ExceptionsHelper.status(exists));
        assertTrue(exists.getMessage(), exists.getMessage().contains("model [" + running + "] already exists"));
        assertEquals(1, jobs.freeSlots());
        assertEquals("failed", state(running));

        train("after", SyntheticIndices.trainBody("pca", 8, Map.of()));
        assertBusy(() -> assertEquals("created", state("after")), 2, TimeUnit.MINUTES);
        assertEquals(1, jobs.freeSlots());
    }

    public void testANodeCountedFullByAStaleSearchIsStillAsked() throws Exception {
        SyntheticIndices.load(client(), new Random(random().nextLong()));
        String dataNode = internalCluster()
                .getDataNodeInstance(ClusterService.class)
                .localNode()
                .getId();
        // what the search shows of a job whose final state it does not see yet: a model in training on the node,
        // which runs no job and has its slot free (created now, so no sweep fails it first)
        TrainingSweepTests.createTraining("seen-training", dataNode, System.currentTimeMillis());
        assertEquals(
                1, internalCluster().getDataNodeInstance(TrainingJobs.class).freeSlots());

        train("next", SyntheticIndices.trainBody("pca", 8, Map.of()));
        assertBusy(() -> assertEquals("created", state("next")), 2, TimeUnit.MINUTES);
        client().execute(ModelActions.CANCEL, new ModelIdRequest("seen-training", false))
                .actionGet();
        assertEquals("failed", state("seen-training"));
    }

    /** A problem only the rows show fails the job with the reason alone, as a user reads it, not a Java class name. */
    /**
     * A job whose corpus PCA the request circuit breaker could never hold is a 400 before it writes a model, where
     * it once ended the node with an OutOfMemoryError at high dimensions; a job that fits gives its reservation back
     * when it ends.
     */
    public void testAJobTheHeapCannotHoldIsRefusedBeforeItStarts() throws Exception {
        SyntheticIndices.load(client(), new Random(random().nextLong()));
        long pcaBytes = CorpusPca.heapBytes("pca", SyntheticIndices.DIM);
        String limit = "indices.breaker.request.limit";
        assertTrue(client().admin()
                .cluster()
                .prepareUpdateSettings()
                .setTransientSettings(Settings.builder().put(limit, pcaBytes / 2 + "b"))
                .get()
                .isAcknowledged());
        try {
            IllegalArgumentException e = expectThrows(
                    IllegalArgumentException.class,
                    () -> train("too-wide", SyntheticIndices.trainBody("pca", 8, Map.of())));
            assertTrue(
                    e.getMessage(),
                    e.getMessage()
                            .startsWith("[corpus.vector_field] has 32 dimensions, and method [pca] fits a PCA of the"
                                    + " corpus whose covariance takes 16.2kb of heap, more than node ["));
            assertTrue(e.getMessage(), e.getMessage().contains("request circuit breaker holds (8.1kb"));
        } finally {
            assertTrue(client().admin()
                    .cluster()
                    .prepareUpdateSettings()
                    .setTransientSettings(Settings.builder().putNull(limit))
                    .get()
                    .isAcknowledged());
        }
        expectThrows(
                org.opensearch.ResourceNotFoundException.class,
                () -> client().execute(ModelActions.GET, new ModelIdRequest("too-wide", false))
                        .actionGet());

        train("fits", SyntheticIndices.trainBody("pca", 8, Map.of()));
        assertBusy(() -> assertEquals("created", state("fits")), 2, TimeUnit.MINUTES);
        assertBusy(() -> {
            for (var node : client().admin()
                    .cluster()
                    .prepareNodesStats()
                    .addMetric(
                            org.opensearch.action.admin.cluster.node.stats.NodesStatsRequest.Metric.BREAKER
                                    .metricName())
                    .get()
                    .getNodes()) {
                long held = node.getBreaker().getStats(CircuitBreaker.REQUEST).getEstimated();
                assertTrue(node.getNode().getName() + " holds " + held, held < pcaBytes);
            }
        });
    }

    public void testAJobFailedByItsRowsSaysWhyInTheUsersTerms() throws Exception {
        SyntheticIndices.load(client(), new Random(random().nextLong()));
        client().admin()
                .indices()
                .prepareCreate("split-judgments")
                .setMapping(
                        "query_id",
                        "type=keyword",
                        "doc_id",
                        "type=keyword",
                        "rating",
                        "type=integer",
                        "split",
                        "type=keyword")
                .get();
        BulkRequestBuilder rows = client().prepareBulk().setRefreshPolicy(WriteRequest.RefreshPolicy.IMMEDIATE);
        for (int q = 0; q < SyntheticIndices.QUERY_COUNT; q++) {
            String split = q % 5 == 0 ? "test" : "train";
            rows.add(client().prepareIndex("split-judgments")
                    .setSource(Map.of("query_id", "q" + q, "doc_id", "d" + q, "rating", 1, "split", split)));
        }
        rows.add(client().prepareIndex("split-judgments")
                .setSource(Map.of("query_id", "q1", "doc_id", "d7", "rating", 1, "split", "test")));
        assertFalse(rows.get().hasFailures());
        Map<String, Object> body = new java.util.HashMap<>(SyntheticIndices.trainBody("pca", 8, Map.of()));
        body.put("judgments", Map.of("index", "split-judgments"));
        body.put("split", Map.of("field", "split"));
        train("two-splits", body);
        assertBusy(() -> assertEquals("failed", state("two-splits")), 2, TimeUnit.MINUTES);
        assertEquals(
                "query 'q1' is in two splits",
                client().execute(ModelActions.GET, new ModelIdRequest("two-splits", false))
                        .actionGet()
                        .model()
                        .source()
                        .get("error"));
    }

    /**
     * Queries named by their documents' own {@code _id} train like those named by a field; a query vector without the
     * id field it is keyed by is left out and counted, where it was once keyed "null".
     */
    @SuppressWarnings("unchecked")
    public void testQueriesAreNamedByTheirIdFieldOrTheirOwnId() throws Exception {
        SyntheticIndices.load(client(), new Random(random().nextLong()));
        float[] vector = new float[SyntheticIndices.DIM];
        java.util.Arrays.fill(vector, 1f);
        client().prepareIndex(SyntheticIndices.QUERIES)
                .setId("nameless")
                .setSource(Map.of("vector", vector))
                .setRefreshPolicy(WriteRequest.RefreshPolicy.IMMEDIATE)
                .get();
        Map<String, Object> byOwnId = new java.util.HashMap<>(SyntheticIndices.trainBody("pca", 8, Map.of()));
        byOwnId.put("queries", Map.of("index", SyntheticIndices.QUERIES, "id_field", "_id"));
        // one at a time: the node runs one job
        train("by-own-id", byOwnId);
        assertBusy(() -> assertEquals("created", state("by-own-id")), 2, TimeUnit.MINUTES);
        train("by-field", SyntheticIndices.trainBody("pca", 8, Map.of()));
        assertBusy(() -> assertEquals("created", state("by-field")), 2, TimeUnit.MINUTES);
        Map<String, Object> counts = (Map<String, Object>)
                ((Map<String, Object>) client().execute(ModelActions.GET, new ModelIdRequest("by-field", false))
                                .actionGet()
                                .model()
                                .source()
                                .get("progress"))
                        .get("judgments");
        assertEquals(String.valueOf(counts), 1, ((Number) counts.get("query_vectors_without_id")).intValue());
    }

    /**
     * Judgments a job cannot use are counted in its progress, by reason: a typo in a split value shows, and so does
     * a row without a document or a rating.
     */
    @SuppressWarnings("unchecked")
    public void testJudgmentsLeftOutAreCounted() throws Exception {
        SyntheticIndices.load(client(), new Random(random().nextLong()));
        client().admin()
                .indices()
                .prepareCreate("counted-judgments")
                .setMapping(
                        "query_id",
                        "type=keyword",
                        "doc_id",
                        "type=keyword",
                        "rating",
                        "type=integer",
                        "split",
                        "type=keyword")
                .get();
        BulkRequestBuilder rows = client().prepareBulk().setRefreshPolicy(WriteRequest.RefreshPolicy.IMMEDIATE);
        for (int q = 0; q < SyntheticIndices.QUERY_COUNT; q++) {
            rows.add(row("q" + q, "d" + q, q % 5 == 0 ? "test" : "train"));
        }
        for (int q = 1; q <= 3; q++) {
            rows.add(row("q" + q, "d" + (500 + q), "Train"));
        }
        rows.add(row("q4", "no-such-doc", "train"));
        rows.add(row("q5", "no-such-doc", "train"));
        rows.add(row("no-such-query", "d9", "train"));
        rows.add(client().prepareIndex("counted-judgments")
                .setSource(Map.of("query_id", "q6", "rating", 1, "split", "train")));
        rows.add(client().prepareIndex("counted-judgments")
                .setSource(Map.of("query_id", "q7", "doc_id", "d7", "split", "train")));
        assertFalse(rows.get().hasFailures());
        Map<String, Object> body = new java.util.HashMap<>(SyntheticIndices.trainBody("pca", 8, Map.of()));
        body.put("judgments", Map.of("index", "counted-judgments"));
        body.put("split", Map.of("field", "split"));
        train("counted", body);
        assertBusy(() -> assertEquals("created", state("counted")), 2, TimeUnit.MINUTES);
        Map<String, Object> progress =
                (Map<String, Object>) client().execute(ModelActions.GET, new ModelIdRequest("counted", false))
                        .actionGet()
                        .model()
                        .source()
                        .get("progress");
        Map<String, Object> counts = (Map<String, Object>) progress.get("judgments");
        Map<String, Long> asLongs = new java.util.LinkedHashMap<>();
        counts.forEach((k, v) -> asLongs.put(k, ((Number) v).longValue()));
        assertEquals(
                Map.of(
                        "query_vectors_without_id",
                        0L,
                        "unreadable_rows",
                        2L,
                        "judged_pairs",
                        106L,
                        "pairs_without_query_vector",
                        1L,
                        "pairs_without_document_vector",
                        2L,
                        "queries_without_relevant_document",
                        0L,
                        "pairs_in_neither_split",
                        3L),
                asLongs);
    }

    private static org.opensearch.action.index.IndexRequestBuilder row(String query, String doc, String split) {
        return client().prepareIndex("counted-judgments")
                .setSource(Map.of("query_id", query, "doc_id", doc, "rating", 1, "split", split));
    }
}
