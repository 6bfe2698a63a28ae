package dev.compress.training.job;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import dev.compress.training.data.EmbeddedDataset;
import dev.compress.training.data.Qrels;
import dev.compress.training.data.VectorSet;
import dev.compress.training.eval.RetrievalEvaluator;
import dev.compress.training.sampling.QuerySplit;
import dev.compress.training.sampling.TrainingData;
import dev.compress.training.trainer.EpochStats;
import dev.compress.training.trainer.TrainedModel;
import dev.compress.training.trainer.Trainer;
import dev.compress.training.trainer.TrainerFactory;
import dev.compress.training.trainer.TrainingListener;
import dev.compress.training.trainer.TruncationTrainer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CancellationException;
import org.junit.Test;

/** What a job checks and passes on before a trainer runs. */
public class TrainingRunTests {

    private static final int DOCS = 30, QUERIES = 7, DIM = 8;

    private static VectorSet vectors(String prefix, int n, Random random) {
        List<String> ids = new ArrayList<>();
        float[][] rows = new float[n][DIM];
        for (int i = 0; i < n; i++) {
            ids.add(prefix + i);
            for (int j = 0; j < DIM; j++) {
                rows[i][j] = (float) random.nextGaussian();
            }
        }
        return VectorSet.ofRows(ids, rows);
    }

    /** Query i is judged relevant to document i. */
    private static Qrels judgments() {
        Map<String, Map<String, Integer>> byQuery = new LinkedHashMap<>();
        for (int q = 0; q < QUERIES; q++) {
            byQuery.put("q" + q, Map.of("d" + q, 1));
        }
        return new Qrels(byQuery);
    }

    private static TrainingRun.Outcome run(QuerySplit split, Trainer trainer) {
        return run(split, trainer, TrainingListener.NONE);
    }

    private static TrainingRun.Outcome run(QuerySplit split, Trainer trainer, TrainingListener listener) {
        Random random = new Random(7);
        return TrainingRun.run(
                "test",
                vectors("d", DOCS, random),
                vectors("q", QUERIES, random),
                judgments(),
                split,
                trainer,
                listener);
    }

    @Test
    public void aRunAskedToStopEndsBeforeItsEvaluation() {
        QuerySplit split = new QuerySplit(List.of("q0", "q1", "q2"), List.of("q3", "q4"), List.of("q5", "q6"));
        TrainingListener stopping = new TrainingListener() {
            @Override
            public void onEpoch(EpochStats stats, int totalEpochs) {}

            @Override
            public boolean stopRequested() {
                return true;
            }
        };
        assertThrows(
                CancellationException.class,
                () -> run(split, TrainerFactory.create("dive", List.of(4), Map.of("epochs", 3), 0L, "cpu"), stopping));
    }

    @Test
    public void aSplitWithFewerThanTwoValidationOrTestQueriesIsRefused() {
        List<String> train = List.of("q0", "q1", "q2");
        assertRefused(new QuerySplit(train, List.of(), List.of("q5", "q6")), "holds out 0 validation queries");
        assertRefused(
                new QuerySplit(train, List.of("q3"), List.of("q5", "q6")),
                "holds out 1 validation query with a relevant document,");
        assertRefused(
                new QuerySplit(train, List.of("q3", "q4"), List.of("q5")),
                "holds out 1 test query with a relevant document,");
    }

    private static void assertRefused(QuerySplit split, String expected) {
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> run(split, new TruncationTrainer(List.of(4))));
        assertTrue(e.getMessage(), e.getMessage().contains(expected));
        assertTrue(e.getMessage(), e.getMessage().contains("at least 2 are needed"));
    }

    @Test
    public void theTrainersHardNegativeCountReachesItsData() {
        int[] seen = new int[1];
        Trainer truncation = new TruncationTrainer(List.of(4));
        Trainer recording = new Trainer() {
            @Override
            public String method() {
                return truncation.method();
            }

            @Override
            public int hardNegativesPerQuery() {
                return 3;
            }

            @Override
            public TrainedModel train(TrainingData data, TrainingListener listener) {
                seen[0] = data.hardNegatives()[0].length;
                return truncation.train(data, listener);
            }
        };
        TrainingRun.Outcome outcome =
                run(new QuerySplit(List.of("q0", "q1", "q2"), List.of("q3", "q4"), List.of("q5", "q6")), recording);
        assertEquals(3, seen[0]);
        assertEquals(2, outcome.evaluation().get("held_out_queries"));
        // DIVE's parameter is what it asks for
        Trainer dive = TrainerFactory.create("dive", List.of(4), Map.of("hard_negatives_per_query", 7), 0L, "cpu");
        assertEquals(7, dive.hardNegativesPerQuery());
    }

    @Test
    @SuppressWarnings("unchecked")
    public void aLearnedModelIsReportedBesidePcaAtItsDimensions() {
        QuerySplit split = new QuerySplit(List.of("q0", "q1", "q2"), List.of("q3", "q4"), List.of("q5", "q6"));
        TrainingRun.Outcome learned =
                run(split, TrainerFactory.create("dive", List.of(4), Map.of("epochs", 1), 0L, "cpu"));
        List<Map<String, Object>> rows =
                (List<Map<String, Object>>) learned.evaluation().get("rows");
        assertEquals(
                List.of("frozen", "dive", "pca"),
                rows.stream().map(r -> r.get("method")).distinct().toList());
        List<Map<String, Object>> vsPca =
                (List<Map<String, Object>>) learned.evaluation().get("vs_pca");
        // one comparison per learned row: each of the model's encodings at its one dimension
        long learnedRows =
                rows.stream().filter(r -> r.get("method").equals("dive")).count();
        assertTrue(learnedRows > 0);
        assertEquals(learnedRows, vsPca.size());
        assertEquals(learnedRows, learned.heldOut().vsPca().size());
        for (HeldOutEvaluation.PcaComparison c : learned.heldOut().vsPca()) {
            assertEquals(4, c.learned().dims());
            assertEquals(c.learned().encoding(), c.pca().encoding());
            assertEquals(c.learned().scores().ndcg() - c.pca().scores().ndcg(), c.diff(), 1e-9);
        }
        Map<String, Object> selection =
                (Map<String, Object>) learned.evaluation().get("selection");
        assertEquals(false, selection.get("stopped_by_time_budget"));
        assertEquals(480L, selection.get("time_budget_seconds"));
        // PCA itself has nothing to be compared with
        TrainingRun.Outcome pca = run(split, TrainerFactory.create("pca", List.of(4), Map.of(), 0L, "cpu"));
        assertTrue(!pca.evaluation().containsKey("vs_pca"));
    }

    /** A run whose time budget is spent before its epochs ships its start and says the budget stopped it. */
    @Test
    @SuppressWarnings("unchecked")
    public void aRunStoppedByItsBudgetSaysSo() {
        Random random = new Random(7);
        QuerySplit split = new QuerySplit(List.of("q0", "q1", "q2"), List.of("q3", "q4"), List.of("q5", "q6"));
        EmbeddedDataset data =
                new EmbeddedDataset("test", "index", null, vectors("d", DOCS, random), vectors("q", QUERIES, random));
        Trainer dive = TrainerFactory.create("dive", List.of(4), Map.of("epochs", 50), 0L, "cpu");
        TrainingRun.Outcome outcome = TrainingRun.run(
                TrainingData.build(
                        data,
                        judgments().restrictTo(Set.of("q0", "q1", "q2", "q3", "q4")),
                        split,
                        dive.hardNegativesPerQuery()),
                data.evalSet(judgments().restrictTo(Set.of("q5", "q6"))),
                dive,
                TrainingListener.NONE,
                Duration.ZERO,
                RetrievalEvaluator.standard(),
                List.of());
        Map<String, Object> selection =
                (Map<String, Object>) outcome.evaluation().get("selection");
        assertEquals(true, selection.get("stopped_by_time_budget"));
        assertEquals(0L, selection.get("time_budget_seconds"));
        assertEquals("start", selection.get("shipped"));
    }

    /** Work before the epochs shows as phases: the hard-negative mining, then the corpus PCA, each to its end. */
    @Test
    public void workBeforeTheEpochsIsReportedAsPhases() {
        QuerySplit split = new QuerySplit(List.of("q0", "q1", "q2"), List.of("q3", "q4"), List.of("q5", "q6"));
        List<String> phases = new ArrayList<>();
        TrainingListener recording = new TrainingListener() {
            @Override
            public void onEpoch(EpochStats stats, int totalEpochs) {
                phases.add("epoch " + stats.epoch());
            }

            @Override
            public void onPhase(String phase, int done, int total) {
                phases.add(phase + (done == total ? " done" : ""));
            }
        };
        run(split, TrainerFactory.create("dive", List.of(4), Map.of("epochs", 1), 0L, "cpu"), recording);
        List<String> firstOfEach = phases.stream().distinct().toList();
        // the corpus is one block, so each pass reports only its end
        assertEquals(
                List.of(
                        "hard_negative_mining done",
                        "corpus_pca_covariance done",
                        "corpus_pca_decomposition done",
                        "epoch 0",
                        "epoch 1"),
                firstOfEach);
    }
}
