package dev.compress.demo.report;

/**
 * One configuration's line of the results: held-out nDCG@10 and recall@10, as values and as ratios to
 * the baseline measured in the same run, the paired nDCG@10 difference to it (mean and standard
 * error over queries), bytes per vector, and the median time the node took per query.
 */
public record ResultRow(
        String label,
        int searchBytes,
        int diskBytes,
        double ndcg,
        double recall,
        double ndcgRatio,
        double recallRatio,
        double pairedNdcgDifference,
        double pairedStandardError,
        double seconds,
        double p50Millis) {}
