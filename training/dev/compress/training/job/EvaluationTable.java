package dev.compress.training.job;

import dev.compress.training.eval.ModelEvaluator;
import dev.compress.training.eval.Scores;
import dev.compress.training.mask.MaskEvaluation;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Evaluation rows as JSON-ready maps, each with its ratio and paired difference to the baseline row. */
public final class EvaluationTable {

    private EvaluationTable() {}

    public static List<Map<String, Object>> toJson(List<ModelEvaluator.Row> rows, Scores baseline) {
        List<Map<String, Object>> table = new ArrayList<>();
        for (ModelEvaluator.Row r : rows) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("method", r.method());
            m.put("dims", r.dims());
            m.put("encoding", r.encoding().label());
            table.add(withScores(m, r.scores(), baseline));
        }
        return table;
    }

    /** Rows of a mask table (Learning to Select): the mask, its ratio and kept dimensions, scores against the full query. */
    public static List<Map<String, Object>> masksToJson(List<MaskEvaluation.Row> rows, Scores baseline) {
        List<Map<String, Object>> table = new ArrayList<>();
        for (MaskEvaluation.Row r : rows) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("mask", r.mask());
            m.put("ratio", r.ratio());
            m.put("kept_dimensions", r.kept());
            table.add(withScores(m, r.scores(), baseline));
        }
        return table;
    }

    /** Appends a row's scores, their ratio to the baseline and the paired difference (mean, standard error). */
    private static Map<String, Object> withScores(Map<String, Object> row, Scores scores, Scores baseline) {
        row.put("ndcg@10", scores.ndcg());
        row.put("recall@10", scores.recall());
        row.put("ratio_to_frozen", scores.ndcg() / baseline.ndcg());
        double[] diff = scores.pairedDifference(baseline);
        row.put("paired_diff_to_frozen", diff[0]);
        row.put("paired_diff_stderr", diff[1]);
        return row;
    }
}
