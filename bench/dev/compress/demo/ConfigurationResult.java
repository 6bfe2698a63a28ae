package dev.compress.demo;

/**
 * Per-query nDCG@10, recall@10 and server-side time ({@code took}, ms) of one configuration over the
 * held-out queries (same order for every configuration, so differences can be paired).
 */
public record ConfigurationResult(SearchConfiguration config, double[] ndcg, double[] recall, double[] tookMillis, double seconds) {

    /** Median of the per-query {@code took} the node reported (its millisecond resolution). */
    public double p50Millis() {
        double[] sorted = tookMillis.clone();
        java.util.Arrays.sort(sorted);
        return sorted.length == 0 ? 0 : sorted[(sorted.length - 1) / 2];
    }

    public double meanNdcg() {
        return mean(ndcg);
    }

    public double meanRecall() {
        return mean(recall);
    }

    /** Mean and standard error of the per-query nDCG@10 difference to {@code baseline}. */
    public double[] pairedNdcgDifference(ConfigurationResult baseline) {
        int n = ndcg.length;
        double[] d = new double[n];
        for (int i = 0; i < n; i++) {
            d[i] = ndcg[i] - baseline.ndcg[i];
        }
        double mean = mean(d);
        double var = 0;
        for (double x : d) {
            var += (x - mean) * (x - mean);
        }
        double se = n > 1 ? Math.sqrt(var / (n - 1) / n) : 0;
        return new double[] { mean, se };
    }

    private static double mean(double[] values) {
        double sum = 0;
        for (double v : values) {
            sum += v;
        }
        return values.length == 0 ? 0 : sum / values.length;
    }
}
