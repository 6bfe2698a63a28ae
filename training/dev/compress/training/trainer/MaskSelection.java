package dev.compress.training.trainer;

import dev.compress.training.eval.Scores;
import java.util.Arrays;
import java.util.List;

/**
 * Which mask a query that names no ratio gets: among the candidates (each scored on the same judged training
 * queries as the whole query, out of fold for the learned predictor: {@link MaskCrossValidation}), the one with
 * the best mean paired difference candidate - whole query whose one-sided {@value Selection#CONFIDENCE} lower
 * bound ({@link Selection#lowerBound}) is above zero; when none clears it, the whole query.
 *
 * <p>The best of some sixty candidates is an optimistic estimate of itself, so the rule is checked once more
 * as a whole, over the cross-validation folds: for each fold, the rule chooses on the other folds' queries
 * alone, and the fold's own queries are scored with that choice. Those out-of-fold scores measure what the
 * rule gains on queries it did not choose on, winner's curse included; unless their lower bound against the
 * whole query is above zero too, the whole query is served. (The learned candidates' scores on the other folds
 * come from predictors that trained on the fold's queries among others; only which mask wins depends on them.)
 *
 * <p>No correction for the number of candidates is applied on top. A Bonferroni level was checked on the
 * training split alone, with the normal quantile the interval then took (Student's t differs from it by about 1% at
 * these query counts) (choosing among the judgment-free masks on half of the training queries, measuring on
 * the other half, over many random halvings): it served the whole query in most draws and gave up most of the
 * gain where the PRF masks help on the training queries (nfcorpus), while the plain level's losing choices
 * were rare and small. Nor is the simplest candidate within one standard error of the best preferred (the
 * one-standard-error rule, simplest meaning the norm mask before the PRF masks before the predictor, and a
 * larger share first): on the training split alone too, its out-of-fold gain (above) over the training
 * queries of both data sets with both embedding models was below the plain best's in three of the four.
 */
public final class MaskSelection {

    /**
     * The served candidate (null: the whole query), its mean paired difference to the whole query, the lower
     * bound that admitted it (0 when none was admitted), and the rule's own out-of-fold mean gain over the whole
     * query with its lower bound (both 0 when the rule chose the whole query on every fold).
     */
    public record Choice(
            MaskCrossValidation.Candidate served,
            double meanDifference,
            double lowerBound,
            double outOfFoldGain,
            double outOfFoldLowerBound) {

        public boolean wholeQuery() {
            return served == null;
        }
    }

    private MaskSelection() {}

    /** The rule above, checked out of fold over {@code folds} (which partition the queries of {@code full}). */
    public static Choice choose(List<MaskCrossValidation.Candidate> candidates, Scores full, Folds folds) {
        List<Scores> all =
                candidates.stream().map(MaskCrossValidation.Candidate::scores).toList();
        double[] outOfFold = full.perQueryNdcg().clone();
        for (int f = 0; f < folds.k(); f++) {
            int[] training = folds.training(f);
            int chosen = best(all.stream().map(s -> rows(s, training)).toList(), rows(full, training));
            if (chosen >= 0) {
                double[] scores = all.get(chosen).perQueryNdcg();
                for (int i : folds.heldOut(f)) {
                    outOfFold[i] = scores[i];
                }
            }
        }
        Scores rule = new Scores(Arrays.stream(outOfFold).average().orElse(0), full.recall(), outOfFold);
        int queries = full.perQueryNdcg().length;
        double[] gain = rule.pairedDifference(full);
        double gainLower = Selection.lowerBound(gain, queries);
        int best = best(all, full);
        if (best < 0 || !(gainLower > 0)) {
            return new Choice(null, 0, 0, gain[0], gainLower);
        }
        double[] served = all.get(best).pairedDifference(full);
        return new Choice(candidates.get(best), served[0], Selection.lowerBound(served, queries), gain[0], gainLower);
    }

    /** The index of the scores with the best mean paired difference whose lower bound is above zero; -1 when none. */
    private static int best(List<Scores> candidates, Scores full) {
        int best = -1;
        double bestMean = 0;
        for (int c = 0; c < candidates.size(); c++) {
            double[] difference = candidates.get(c).pairedDifference(full);
            if (difference[0] > bestMean && Selection.lowerBound(difference, full.perQueryNdcg().length) > 0) {
                best = c;
                bestMean = difference[0];
            }
        }
        return best;
    }

    /** The per-query scores of {@code rows} only; recall stays the whole set's mean, which the rule does not read. */
    private static Scores rows(Scores s, int[] rows) {
        double[] v = new double[rows.length];
        for (int i = 0; i < rows.length; i++) {
            v[i] = s.perQueryNdcg()[rows[i]];
        }
        return new Scores(Arrays.stream(v).average().orElse(0), s.recall(), v);
    }
}
