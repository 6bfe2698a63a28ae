package dev.compress.training.job;

import dev.compress.training.data.EvalSet;
import dev.compress.training.eval.ModelEvaluator;
import dev.compress.training.eval.RetrievalEvaluator;
import dev.compress.training.eval.Scores;
import dev.compress.training.inference.CpuEncoders;
import dev.compress.training.inference.Encoder;
import dev.compress.training.mask.MaskEvaluation;
import dev.compress.training.model.ModelArtifact;
import dev.compress.training.model.ModelMetadata;
import dev.compress.training.sampling.TrainingData;
import dev.compress.training.trainer.PcaTrainer;
import dev.compress.training.trainer.QueryMaskTrainer;
import dev.compress.training.trainer.TrainingListener;
import dev.compress.training.trainer.TruncationTrainer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A trained model measured on held-out queries only, against baselines of the same run. An embedding model:
 * the frozen full-dimension vectors and the model at each of its dimensions and encodings, and, for a learned
 * method, PCA fitted on the same corpus at the same dimensions with the paired difference of each learned row
 * to it. A mask predictor: the mask table of Learning to Select (full query, cutoff,
 * norm, DIME-PRF, Eclipse-PRF, learned) at each requested ratio and at the ratio it serves by default, ending
 * with the row of the mask and share a query that names no ratio gets.
 *
 * @param rows      frozen rows first, then the model's, then PCA's (embedding models)
 * @param vsPca     each learned row against PCA at the same dimensions and encoding
 * @param maskRows  the mask table (mask predictors), its first row the full query
 */
public record HeldOutEvaluation(
        int heldOutQueries,
        List<ModelEvaluator.Row> rows,
        List<PcaComparison> vsPca,
        List<MaskEvaluation.Row> maskRows,
        Double validatedRatio) {

    /** Prefix of the mask table's last row: the mask served when a query names no ratio ({@code served:<mask>}). */
    public static final String SERVED = "served";

    /** A learned row beside PCA's at the same dimensions and encoding: the paired per-query difference of nDCG@10. */
    public record PcaComparison(ModelEvaluator.Row learned, ModelEvaluator.Row pca, double diff, double stderr) {

        public Map<String, Object> json() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("method", learned.method());
            m.put("dims", learned.dims());
            m.put("encoding", learned.encoding().label());
            m.put("pca_ndcg@10", pca.scores().ndcg());
            m.put("paired_diff_to_pca", diff);
            m.put("paired_diff_stderr", stderr);
            return m;
        }
    }

    /**
     * @param maskRatios the ratios of a mask table besides the one the predictor serves by default; empty: the
     *                   ratio it was trained for (ignored for embedding models)
     */
    public static HeldOutEvaluation of(
            TrainingData data,
            EvalSet test,
            ModelArtifact model,
            String method,
            RetrievalEvaluator retrieval,
            List<Double> maskRatios) {
        if (ModelMetadata.OUTPUT_DIMENSION_SCORES.equals(model.metadata().output())) {
            return masks(test, model, retrieval, maskRatios);
        }
        ModelEvaluator evaluator = new ModelEvaluator(retrieval);
        List<ModelEvaluator.Row> rows = new ArrayList<>(evaluator.evaluateFrozen(test));
        List<ModelEvaluator.Row> learned = new ArrayList<>();
        for (int d : model.metadata().outputDims()) {
            try (Encoder encoder = CpuEncoders.forServing(model, d)) {
                learned.addAll(evaluator.evaluate(method, encoder, test));
            }
        }
        rows.addAll(learned);
        List<PcaComparison> vsPca = new ArrayList<>();
        if (!method.equals(PcaTrainer.METHOD) && !method.equals(TruncationTrainer.METHOD)) {
            List<Integer> dims = model.metadata().outputDims();
            ModelArtifact pca = new PcaTrainer(dims, false)
                    .train(data, TrainingListener.NONE)
                    .artifact();
            List<ModelEvaluator.Row> pcaRows = new ArrayList<>();
            for (int d : dims) {
                try (Encoder encoder = CpuEncoders.forServing(pca, d)) {
                    pcaRows.addAll(evaluator.evaluate(PcaTrainer.METHOD, encoder, test));
                }
            }
            rows.addAll(pcaRows);
            for (ModelEvaluator.Row l : learned) {
                for (ModelEvaluator.Row p : pcaRows) {
                    if (p.dims() == l.dims() && p.encoding() == l.encoding()) {
                        double[] diff = l.scores().pairedDifference(p.scores());
                        vsPca.add(new PcaComparison(l, p, diff[0], diff[1]));
                    }
                }
            }
        }
        return new HeldOutEvaluation(test.queries().size(), List.copyOf(rows), List.copyOf(vsPca), List.of(), null);
    }

    private static HeldOutEvaluation masks(
            EvalSet test, ModelArtifact model, RetrievalEvaluator retrieval, List<Double> maskRatios) {
        Map<String, Object> params = model.metadata().trainingParameters();
        double validated = ((Number) params.get(QueryMaskTrainer.VALIDATED_RATIO)).doubleValue();
        List<Double> ratios = new ArrayList<>(
                maskRatios.isEmpty() ? List.of(((Number) params.get("ratio")).doubleValue()) : maskRatios);
        if (validated < 1.0 && !ratios.contains(validated)) {
            ratios.add(validated);
        }
        Object servedMask = params.get(QueryMaskTrainer.VALIDATED_MASK);
        String mask = validated == 1.0 ? "full" : servedMask == null ? "learned" : servedMask.toString();
        List<MaskEvaluation.Row> rows;
        try (Encoder predictor = CpuEncoders.forServing(model, model.metadata().maxOutputDim())) {
            rows = new ArrayList<>(
                    new MaskEvaluation(retrieval).table(test, ratios, predictor, MaskEvaluation.Prf.defaults()));
        }
        // what a query that names no ratio gets: the validated mask at the validated share
        MaskEvaluation.Row served = rows.stream()
                .filter(r -> r.mask().equals(mask) && (mask.equals("full") || r.ratio() == validated))
                .findFirst()
                .orElseThrow();
        rows.add(new MaskEvaluation.Row(SERVED + ":" + mask, served.ratio(), served.kept(), served.scores()));
        return new HeldOutEvaluation(test.queries().size(), List.of(), List.of(), List.copyOf(rows), validated);
    }

    /** The frozen full-dimension (or full-query) baseline every ratio is taken against. */
    public Scores baseline() {
        return maskRows.isEmpty() ? rows.get(0).scores() : maskRows.get(0).scores();
    }

    /** The evaluation as stored with the model and shown by the API. */
    public Map<String, Object> json() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("held_out_queries", heldOutQueries);
        if (validatedRatio != null) {
            m.put("validated_ratio", validatedRatio);
            m.put("rows", EvaluationTable.masksToJson(maskRows, baseline()));
        } else {
            m.put("rows", EvaluationTable.toJson(rows, baseline()));
            if (!vsPca.isEmpty()) {
                m.put("vs_pca", vsPca.stream().map(PcaComparison::json).toList());
            }
        }
        return m;
    }
}
