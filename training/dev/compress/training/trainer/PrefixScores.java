package dev.compress.training.trainer;

import dev.compress.training.eval.Scores;
import java.util.Map;

/**
 * Validation of a nested model: the scores at each served dimension (prefixes of its output) and, per
 * query, their mean, which ranks the epochs.
 *
 * @param mean        per query, the mean nDCG@10 over the served dimensions
 * @param byDimension each served dimension's scores, in increasing order of dimension
 */
public record PrefixScores(Scores mean, Map<Integer, Scores> byDimension) {}
