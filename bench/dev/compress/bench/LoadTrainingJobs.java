package dev.compress.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The training jobs of the {@code load} section: how long each took and how it ended. */
final class LoadTrainingJobs {

    private final List<Long> nanos = new ArrayList<>();
    private long failed;
    private long cutOff;

    synchronized void ended(long latencyNanos, boolean created) {
        nanos.add(latencyNanos);
        if (created == false) {
            failed++;
        }
    }

    /** A job still training when the run ended, and cancelled. */
    synchronized void cutOff() {
        cutOff++;
    }

    synchronized long cutOffCount() {
        return cutOff;
    }

    synchronized Map<String, Object> row(int seconds) {
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("workload", "training: _train, one job at a time, polled until it ends");
        row.put("clients", 1);
        row.put("requests", nanos.size());
        row.put("errors", failed);
        row.put("per_s", nanos.size() / (double) seconds);
        row.put("p50_ms", LoadCounts.percentileMillis(nanos, 0.5));
        row.put("p99_ms", LoadCounts.percentileMillis(nanos, 0.99));
        return row;
    }
}
