package dev.compress.training.job;

import dev.compress.training.data.EmbeddedDataset;
import dev.compress.training.data.EvalSet;
import dev.compress.training.data.Qrels;
import dev.compress.training.data.VectorRows;
import dev.compress.training.data.VectorSet;
import dev.compress.training.eval.Encoding;
import dev.compress.training.eval.ModelEvaluator;
import dev.compress.training.eval.RetrievalEvaluator;
import dev.compress.training.eval.Scores;
import dev.compress.training.inference.CpuEncoders;
import dev.compress.training.inference.Encoder;
import dev.compress.training.mask.MaskEvaluation;
import dev.compress.training.model.ModelArtifact;
import dev.compress.training.model.ModelMetadata;
import dev.compress.training.sampling.QuerySplit;
import dev.compress.training.sampling.TrainingData;
import dev.compress.training.trainer.QueryMaskTrainer;
import dev.compress.training.trainer.Selection;
import dev.compress.training.trainer.TrainedModel;
import dev.compress.training.trainer.Trainer;
import dev.compress.training.trainer.TrainingBudget;
import dev.compress.training.trainer.TrainingListener;
import dev.compress.training.trainer.TrainingReport;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One training job from vectors and judgments already read (the corpus on the heap or mapped from
 * its file, the queries on the heap): builds the training data of the split, trains, and evaluates
 * the model on the split's held-out test queries only, against the frozen full-dimension vectors in
 * the same run. The evaluation travels inside the model file.
 */
public final class TrainingRun {

    public record Outcome(ModelArtifact artifact, TrainingReport report, Map<String, Object> evaluation) {}

    private TrainingRun() {}

    public static Outcome run(
            String source,
            VectorRows corpus,
            VectorSet queries,
            Qrels judgments,
            QuerySplit split,
            Trainer trainer,
            TrainingListener listener) {
        if (split.test().isEmpty()) {
            throw new IllegalArgumentException(
                    "the split holds out no test queries: every reported figure must come from unseen queries");
        }
        if (split.validation().isEmpty()) {
            // every learned method keeps its best validation epoch: with none it would keep its initial weights
            throw new IllegalArgumentException(
                    "the split holds out no validation queries: every learned method chooses its epoch on them");
        }
        EmbeddedDataset data = new EmbeddedDataset(source, "index", null, corpus, queries);
        Set<String> trainAndValidation = new HashSet<>(split.train());
        trainAndValidation.addAll(split.validation());
        TrainingData trainingData = TrainingData.build(
                data, judgments.restrictTo(trainAndValidation), split, trainer.hardNegativesPerQuery());
        TrainedModel trained = trainer.train(trainingData, TrainingBudget.limit(listener, TrainingBudget.DEFAULT));
        Map<String, Object> evaluation = evaluate(
                data.evalSet(judgments.restrictTo(new HashSet<>(split.test()))), trained.artifact(), trainer.method());
        Selection selection = trained.report().selection();
        if (selection != null) {
            Map<String, Object> chosen = new LinkedHashMap<>(selection.asMap());
            chosen.put(
                    "frozen_validation_ndcg@10",
                    RetrievalEvaluator.standard()
                            .evaluate(trainingData.validation(), Encoding.FLOAT)
                            .ndcg());
            evaluation.put("selection", chosen);
        }
        ModelArtifact artifact = new ModelArtifact(
                trained.artifact().metadata().withEvaluation(evaluation),
                trained.artifact().tensors());
        return new Outcome(artifact, trained.report(), evaluation);
    }

    /**
     * nDCG@10 and recall@10 of the frozen vectors and of the model at each of its dimensions and
     * encodings; for a mask predictor, the mask table of the query-aware dimension selection paper at the ratio it was trained for.
     */
    static Map<String, Object> evaluate(EvalSet test, ModelArtifact model, String method) {
        if (ModelMetadata.OUTPUT_DIMENSION_SCORES.equals(model.metadata().output())) {
            return evaluateMasks(test, model);
        }
        ModelEvaluator evaluator = new ModelEvaluator(RetrievalEvaluator.standard());
        List<ModelEvaluator.Row> rows = new ArrayList<>(evaluator.evaluateFrozen(test));
        Scores baseline = rows.get(0).scores();
        for (int d : model.metadata().outputDims()) {
            try (Encoder encoder = CpuEncoders.forServing(model, d)) {
                rows.addAll(evaluator.evaluate(method, encoder, test));
            }
        }
        Map<String, Object> evaluation = new LinkedHashMap<>();
        evaluation.put("held_out_queries", test.queries().size());
        evaluation.put("rows", EvaluationTable.toJson(rows, baseline));
        return evaluation;
    }

    private static Map<String, Object> evaluateMasks(EvalSet test, ModelArtifact model) {
        double ratio = ((Number) model.metadata().trainingParameters().get("ratio")).doubleValue();
        double validated =
                ((Number) model.metadata().trainingParameters().get(QueryMaskTrainer.VALIDATED_RATIO)).doubleValue();
        // at the ratio trained for, and at the one served by default (chosen on validation) when it differs and masks
        List<Double> ratios = validated == ratio || validated == 1.0 ? List.of(ratio) : List.of(ratio, validated);
        List<MaskEvaluation.Row> rows;
        try (Encoder predictor = CpuEncoders.forServing(model, model.metadata().inputDim())) {
            rows = new MaskEvaluation(RetrievalEvaluator.standard())
                    .table(test, ratios, predictor, MaskEvaluation.Prf.defaults());
        }
        Map<String, Object> evaluation = new LinkedHashMap<>();
        evaluation.put("held_out_queries", test.queries().size());
        evaluation.put("validated_ratio", validated);
        evaluation.put("rows", EvaluationTable.masksToJson(rows, rows.get(0).scores()));
        return evaluation;
    }
}
