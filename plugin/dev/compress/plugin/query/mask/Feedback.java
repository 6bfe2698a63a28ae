package dev.compress.plugin.query.mask;

/**
 * The unit vectors of a query's first-pass feedback documents, in rank order: the top ones taken as relevant and
 * the tail ones taken as irrelevant (empty when the mask takes none). Both are empty when the first pass found
 * nothing.
 */
public record Feedback(float[][] positives, float[][] negatives) {}
