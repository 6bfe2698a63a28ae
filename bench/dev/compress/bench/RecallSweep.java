package dev.compress.bench;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * Equal-recall comparisons: a search parameter (a beam, a candidate budget) swept from cheapest to
 * dearest, read at the first value whose recall@10 reaches a level. Comparing two indexes at the
 * same parameter says little, since a beam buys different recall on each; at the cheapest setting
 * that reaches the same recall, their speeds compare what a user would run.
 */
final class RecallSweep {

    static final String RECALL = "recall@10";

    /** One measurement at one parameter value: a row holding at least {@value #RECALL}. */
    @FunctionalInterface
    interface Measure<P> {
        Map<String, Object> at(P parameter) throws IOException;
    }

    private RecallSweep() {}

    /**
     * Measures {@code grid}'s values in order (cheapest first), adding each row to {@code rows}, and
     * stops at the first whose recall reaches {@code level}: that row, or null when none of the grid
     * reaches it (then every value was measured). The dearer values are not run, which keeps a
     * sweep over REST to minutes.
     */
    static <P> Map<String, Object> untilReached(
            List<P> grid, double level, Measure<P> measure, List<Map<String, Object>> rows) throws IOException {
        for (P parameter : grid) {
            Map<String, Object> row = measure.at(parameter);
            rows.add(row);
            if (reaches(row, level)) {
                return row;
            }
        }
        return null;
    }

    /** The first of {@code rows} (in their order, cheapest first) that {@code which} selects and that reaches {@code level}; null if none. */
    static Map<String, Object> firstReaching(
            List<Map<String, Object>> rows, Predicate<Map<String, Object>> which, double level) {
        return rows.stream()
                .filter(which)
                .filter(r -> reaches(r, level))
                .findFirst()
                .orElse(null);
    }

    static boolean reaches(Map<String, Object> row, double level) {
        Object recall = row.get(RECALL);
        return recall instanceof Number n && n.doubleValue() >= level;
    }

    /** {@code a[key] / b[key]}, or NaN when either row is missing (the level was not reached). */
    static double ratio(Map<String, Object> a, Map<String, Object> b, String key) {
        if (a == null || b == null || a.get(key) == null || b.get(key) == null) {
            return Double.NaN;
        }
        return ((Number) a.get(key)).doubleValue() / ((Number) b.get(key)).doubleValue();
    }
}
