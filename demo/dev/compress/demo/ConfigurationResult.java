package dev.compress.demo;

import dev.compress.training.eval.Scores;

/**
 * Per-query nDCG@10, recall@10 and server-side time ({@code took}, ms) of one configuration over the
 * held-out queries (same order for every configuration, so differences can be paired).
 */
public record ConfigurationResult(
        SearchConfiguration config, double[] ndcg, double[] recall, double[] tookMillis, double seconds) {

    /** Median of the per-query {@code took} the node reported (its millisecond resolution). */
    public double p50Millis() {
        double[] sorted = tookMillis.clone();
        java.util.Arrays.sort(sorted);
        return sorted.length == 0 ? 0 : sorted[(sorted.length - 1) / 2];
    }

    /** The evaluation's own summary of these per-query figures (means, paired differences). */
    public Scores scores() {
        return Scores.of(ndcg, recall);
    }

    public double meanNdcg() {
        return scores().ndcg();
    }

    public double meanRecall() {
        return scores().recall();
    }

    /** Mean and standard error of the per-query nDCG@10 difference to {@code baseline}. */
    public double[] pairedNdcgDifference(ConfigurationResult baseline) {
        return scores().pairedDifference(baseline.scores());
    }
}
