package dev.compress.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Requests of one workload of the {@code load} section: their latencies, errors and documents. */
final class LoadCounts {

    private final List<Long> nanos = new ArrayList<>();
    private long errors;
    private long documents;

    synchronized void done(long latencyNanos, boolean ok) {
        nanos.add(latencyNanos);
        if (ok == false) {
            errors++;
        }
    }

    synchronized void documents(long count) {
        documents += count;
    }

    synchronized long documents() {
        return documents;
    }

    synchronized Map<String, Object> row(String workload, int clients, int seconds) {
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("workload", workload);
        row.put("clients", clients);
        row.put("requests", nanos.size());
        row.put("errors", errors);
        row.put("per_s", nanos.size() / (double) seconds);
        row.put("p50_ms", percentileMillis(nanos, 0.5));
        row.put("p99_ms", percentileMillis(nanos, 0.99));
        return row;
    }

    /** The {@code p} quantile (nearest rank) in milliseconds; NaN when there is nothing to rank. */
    static double percentileMillis(List<Long> nanos, double p) {
        if (nanos.isEmpty()) {
            return Double.NaN;
        }
        List<Long> sorted = new ArrayList<>(nanos);
        sorted.sort(null);
        return sorted.get(Math.max(0, (int) Math.ceil(sorted.size() * p) - 1)) / 1e6;
    }
}
