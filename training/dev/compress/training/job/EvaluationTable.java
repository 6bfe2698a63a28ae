package dev.compress.training.job;

import dev.compress.training.eval.ModelEvaluator;
import dev.compress.training.eval.Scores;

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
}
