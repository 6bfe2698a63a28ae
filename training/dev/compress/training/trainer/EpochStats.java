package dev.compress.training.trainer;

import java.util.Map;

/**
 * One epoch's record. {@code losses} holds the total and each component (mean over the epoch's steps);
 * {@code activeTripletRatio} is DIVE's rho(t), the fraction of triplets with a positive hinge;
 * null fields do not apply to the method or epoch.
 * Training and validation wall times are kept apart (validation encodes the whole corpus).
 */
public record EpochStats(
        int epoch,
        Map<String, Double> losses,
        Double activeTripletRatio,
        Double validationNdcg,
        double trainSeconds,
        double validationSeconds) {}
