package dev.compress.demo.report;

import java.util.List;
import java.util.Locale;

/** The results as a fixed-width text table for the console. */
public final class ResultsTable {

    private ResultsTable() {}

    public static String render(List<ResultRow> rows) {
        int width = Math.max(
                "configuration".length(),
                rows.stream().mapToInt(r -> r.label().length()).max().orElse(0));
        StringBuilder out = new StringBuilder();
        String header = String.format(
                Locale.ROOT,
                "%-" + width + "s  %8s  %8s  %7s  %6s  %9s  %6s  %6s  %s%n",
                "configuration",
                "B/vec",
                "disk B",
                "nDCG@10",
                "ratio",
                "recall@10",
                "ratio",
                "p50 ms",
                "paired nDCG@10 diff");
        out.append(header).append("-".repeat(header.length() - 1)).append('\n');
        for (int i = 0; i < rows.size(); i++) {
            ResultRow r = rows.get(i);
            String paired = i == 0
                    ? "(baseline)"
                    : String.format(Locale.ROOT, "%+.4f ± %.4f", r.pairedNdcgDifference(), r.pairedStandardError());
            out.append(String.format(
                    Locale.ROOT,
                    "%-" + width + "s  %8d  %8d  %7.4f  %6.3f  %9.4f  %6.3f  %6.0f  %s%n",
                    r.label(),
                    r.searchBytes(),
                    r.diskBytes(),
                    r.ndcg(),
                    r.ndcgRatio(),
                    r.recall(),
                    r.recallRatio(),
                    r.p50Millis(),
                    paired));
        }
        return out.toString();
    }
}
