package dev.compress.training.eval;

import java.util.Arrays;

/**
 * Mean nDCG@k and recall@k over a query set, with the per-query nDCG kept for paired comparisons
 * (two methods on the same queries differ far less by chance than two unpaired means).
 */
public record Scores(double ndcg, double recall, double[] perQueryNdcg) {

    public static Scores of(double[] ndcg, double[] recall) {
        return new Scores(
                Arrays.stream(ndcg).average().orElse(0),
                Arrays.stream(recall).average().orElse(0),
                ndcg);
    }

    /** Mean of (this - other) per query, and its standard error. */
    public double[] pairedDifference(Scores other) {
        if (other.perQueryNdcg.length != perQueryNdcg.length) {
            throw new IllegalArgumentException("different query sets");
        }
        return pairedDifference(perQueryNdcg, other.perQueryNdcg);
    }

    /** The mean of {@code a[i] - b[i]} over the queries and its standard error, NaN (undefined) below two queries. */
    public static double[] pairedDifference(double[] a, double[] b) {
        int n = a.length;
        double[] d = new double[n];
        for (int i = 0; i < n; i++) {
            d[i] = a[i] - b[i];
        }
        double mean = Arrays.stream(d).average().orElse(0);
        if (n < 2) {
            return new double[] {mean, Double.NaN};
        }
        double var = Arrays.stream(d).map(x -> (x - mean) * (x - mean)).sum() / (n - 1);
        return new double[] {mean, Math.sqrt(var / n)};
    }
}
