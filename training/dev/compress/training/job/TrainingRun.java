package dev.compress.training.job;

import dev.compress.training.data.EmbeddedDataset;
import dev.compress.training.data.EvalSet;
import dev.compress.training.data.Qrels;
import dev.compress.training.data.VectorRows;
import dev.compress.training.data.VectorSet;
import dev.compress.training.eval.Encoding;
import dev.compress.training.eval.RetrievalEvaluator;
import dev.compress.training.model.ModelArtifact;
import dev.compress.training.model.ModelMetadata;
import dev.compress.training.sampling.QuerySplit;
import dev.compress.training.sampling.TrainingData;
import dev.compress.training.trainer.CorpusPca;
import dev.compress.training.trainer.ListenerPhase;
import dev.compress.training.trainer.Selection;
import dev.compress.training.trainer.TrainedModel;
import dev.compress.training.trainer.Trainer;
import dev.compress.training.trainer.TrainingBudget;
import dev.compress.training.trainer.TrainingListener;
import dev.compress.training.trainer.TrainingReport;
import java.time.Duration;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CancellationException;

/**
 * The one train-and-evaluate path, for {@code _train} and {@code TrainCli} alike: trains within a wall-time
 * budget, then measures the model on held-out test queries only ({@link HeldOutEvaluation}), against the
 * frozen full-dimension vectors and PCA of the same run, and records how the shipped weights were chosen on
 * validation. The evaluation travels inside the model file.
 */
public final class TrainingRun {

    /** The fewest queries a split part may hold: one query gives no standard error and no confidence interval. */
    static final int MIN_QUERIES = 2;

    /** {@code evaluation} is {@link HeldOutEvaluation#json()} plus the selection, as stored with the model. */
    public record Outcome(
            ModelArtifact artifact, TrainingReport report, HeldOutEvaluation heldOut, Map<String, Object> evaluation) {}

    private TrainingRun() {}

    /** A job on an index's vectors: the split's train and validation judgments train, its test judgments evaluate. */
    public static Outcome run(
            String source,
            VectorRows corpus,
            VectorSet queries,
            Qrels judgments,
            QuerySplit split,
            Trainer trainer,
            TrainingListener listener) {
        EmbeddedDataset data = new EmbeddedDataset(source, "index", null, corpus, queries);
        Set<String> trainAndValidation = new HashSet<>(split.train());
        trainAndValidation.addAll(split.validation());
        TrainingData trainingData = TrainingData.build(
                data,
                judgments.restrictTo(trainAndValidation),
                split,
                trainer.hardNegativesPerQuery(),
                new ListenerPhase("hard_negative_mining", listener));
        EvalSet test = data.evalSet(judgments.restrictTo(new HashSet<>(split.test())));
        return run(
                trainingData,
                test,
                trainer,
                listener,
                TrainingBudget.DEFAULT,
                RetrievalEvaluator.standard(),
                List.of());
    }

    private static void requireQueries(int held, String part, String why) {
        if (held < MIN_QUERIES) {
            throw new IllegalArgumentException("the split holds out " + held + " " + part + " quer"
                    + (held == 1 ? "y" : "ies") + " with a relevant document, and at least " + MIN_QUERIES
                    + " are needed: " + why + "; add judged queries, or hold out a larger share");
        }
    }

    /**
     * Trains on {@code data} (its validation slice chooses what ships) and evaluates on {@code test}, whose
     * queries must be neither training nor validation queries.
     *
     * @param maskRatios ratios of a mask predictor's held-out table besides its default one; empty: the ratio
     *                   it was trained for
     */
    public static Outcome run(
            TrainingData data,
            EvalSet test,
            Trainer trainer,
            TrainingListener listener,
            Duration budget,
            RetrievalEvaluator retrieval,
            List<Double> maskRatios) {
        requireQueries(
                test.queries().size(),
                "test",
                "every reported figure comes from unseen queries, with its standard error");
        // every learned method keeps its best validation epoch only when it beats the start by more than chance
        requireQueries(
                data.validation().queries().size(),
                "validation",
                "every learned method chooses its epoch on them, by a confidence interval");
        TrainingBudget.Limited budgeted = TrainingBudget.limit(listener, budget);
        // under the run's own listener: a cancel stops the fit, while the budget, which it counts against, stops
        // only the epochs after it (the fit is the start every trained model can fall back to)
        CorpusPca.prepare(trainer.method(), data, listener);
        TrainedModel trained = trainer.train(data, budgeted);
        boolean stoppedByBudget = budgeted.expired();
        // a stop asked of the run itself (not the budget running out) also skips the evaluation
        if (listener.stopRequested()) {
            throw new CancellationException("stopped before the held-out evaluation");
        }
        ModelMetadata metadata = trained.artifact().metadata();
        HeldOutEvaluation heldOut =
                HeldOutEvaluation.of(data, test, trained.artifact(), trainer.method(), retrieval, maskRatios);
        Map<String, Object> evaluation = heldOut.json();
        Selection selection = trained.report().selection();
        if (selection != null) {
            Map<String, Object> chosen = new LinkedHashMap<>(selection.asMap());
            chosen.put(
                    "frozen_validation_ndcg@10",
                    retrieval.evaluate(data.validation(), Encoding.FLOAT).ndcg());
            // the epochs may have ended on their own (all of them, or patience), or on the time budget
            chosen.put("stopped_by_time_budget", stoppedByBudget);
            chosen.put("time_budget_seconds", budget.toSeconds());
            evaluation.put("selection", chosen);
        }
        ModelArtifact artifact = new ModelArtifact(
                metadata.withEvaluation(evaluation), trained.artifact().tensors());
        return new Outcome(artifact, trained.report(), heldOut, evaluation);
    }
}
