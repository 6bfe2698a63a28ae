package dev.compress.training.eval;

import java.util.List;
import java.util.Map;

/**
 * Per-query metrics as trec_eval computes them: nDCG@k with gain = rating (linear), discount
 * log2(rank + 1), and the ideal DCG over the k best of all judged relevant documents of the query
 * (not just the retrieved ones); recall@k = relevant retrieved in the top k / all relevant.
 * Documents with rating <= 0 count as non-relevant.
 */
public final class RetrievalMetrics {

    private RetrievalMetrics() {}

    public static double ndcg(List<String> ranked, Map<String, Integer> judgments, int k) {
        double dcg = 0;
        for (int i = 0; i < Math.min(k, ranked.size()); i++) {
            int rating = judgments.getOrDefault(ranked.get(i), 0);
            if (rating > 0) {
                dcg += rating / log2(i + 2);
            }
        }
        int[] ideal = judgments.values().stream()
                .filter(r -> r > 0)
                .sorted((a, b) -> b - a)
                .mapToInt(Integer::intValue)
                .toArray();
        double idcg = 0;
        for (int i = 0; i < Math.min(k, ideal.length); i++) {
            idcg += ideal[i] / log2(i + 2);
        }
        return idcg == 0 ? 0 : dcg / idcg;
    }

    public static double recall(List<String> ranked, Map<String, Integer> judgments, int k) {
        long relevant = judgments.values().stream().filter(r -> r > 0).count();
        if (relevant == 0) {
            return 0;
        }
        int found = 0;
        for (int i = 0; i < Math.min(k, ranked.size()); i++) {
            if (judgments.getOrDefault(ranked.get(i), 0) > 0) {
                found++;
            }
        }
        return (double) found / relevant;
    }

    private static double log2(double x) {
        return Math.log(x) / Math.log(2);
    }
}
