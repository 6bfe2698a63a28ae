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
            m.put("ndcg@10", r.scores().ndcg());
            m.put("recall@10", r.scores().recall());
            m.put("ratio_to_frozen", r.scores().ndcg() / baseline.ndcg());
            double[] diff = r.scores().pairedDifference(baseline);
            m.put("paired_diff_to_frozen", diff[0]);
            m.put("paired_diff_stderr", diff[1]);
            table.add(m);
        }
        return table;
    }

    /** Rows of a mask table (seed 002): the mask, its ratio and kept dimensions, scores against the full query. */
    public static List<Map<String, Object>> masksToJson(List<MaskEvaluation.Row> rows, Scores baseline) {
        List<Map<String, Object>> table = new ArrayList<>();
        for (MaskEvaluation.Row r : rows) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("mask", r.mask());
            m.put("ratio", r.ratio());
            m.put("kept_dimensions", r.kept());
            m.put("ndcg@10", r.scores().ndcg());
            m.put("recall@10", r.scores().recall());
            m.put("ratio_to_frozen", r.scores().ndcg() / baseline.ndcg());
            double[] diff = r.scores().pairedDifference(baseline);
            m.put("paired_diff_to_frozen", diff[0]);
            m.put("paired_diff_stderr", diff[1]);
            table.add(m);
        }
        return table;
    }
}
