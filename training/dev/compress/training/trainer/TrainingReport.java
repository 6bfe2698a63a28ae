package dev.compress.training.trainer;

import java.util.List;
import java.util.Map;

/**
 * How training went: per-epoch statistics, the epoch whose weights were kept and its validation nDCG@10,
 * the device that ran, wall time, the parameters used, and how the kept epoch was chosen against the start
 * ({@code selection}; null for methods that do not train).
 */
public record TrainingReport(
        String method,
        String device,
        Map<String, Object> parameters,
        List<EpochStats> epochs,
        int bestEpoch,
        Double bestValidationNdcg,
        double trainingSeconds,
        Selection selection) {}
