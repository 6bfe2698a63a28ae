package dev.compress.training.trainer;

import java.util.List;
import java.util.Map;

/**
 * How training went: per-epoch statistics, the epoch whose weights were kept (best validation
 * nDCG@10), the device that ran, wall time, and the parameters used.
 */
public record TrainingReport(
    String method,
    String device,
    Map<String, Object> parameters,
    List<EpochStats> epochs,
    int bestEpoch,
    Double bestValidationNdcg,
    double trainingSeconds
) {}
