package dev.compress.demo.report;

import java.util.List;
import java.util.Map;

/**
 * Everything the main job reports: what ran, the results per configuration (the first row is the
 * baseline), the training curves, and the wall time of each phase.
 *
 * @param heldOut  e.g. "scifact test, 300 queries"
 * @param phases   phase name -> seconds, in run order
 */
public record DemoResults(
        String title,
        String heldOut,
        String modelSummary,
        List<ResultRow> rows,
        List<TrainingEpoch> training,
        Map<String, Double> phases,
        double totalSeconds,
        String finishedAt) {}
