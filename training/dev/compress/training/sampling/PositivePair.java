package dev.compress.training.sampling;

/**
 * A judged relevant document of a training query: rows into {@link TrainingData#queries()} and
 * {@link TrainingData#corpus()}, with gain 2^rating - 1 (1 for binary judgments).
 */
public record PositivePair(int query, int doc, float gain) {}
