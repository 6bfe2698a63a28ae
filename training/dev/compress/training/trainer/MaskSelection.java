package dev.compress.training.trainer;

import dev.compress.training.eval.Scores;
import java.util.List;

/**
 * Which mask a query that names no ratio gets: among the candidates (each scored on the same judged training
 * queries as the whole query, out of fold for the learned predictor: {@link MaskCrossValidation}), the one with
 * the best mean paired difference candidate - whole query whose one-sided {@value Selection#CONFIDENCE} lower
 * bound ({@link Selection#lowerBound}) is above zero; when none clears it, the whole query.
 *
 * <p>No correction for the number of candidates (some sixty) is applied. The winner's curse that served a
 * losing mask came from choosing on one validation slice of a few hundred queries; cross-validation scores
 * every candidate on all the judged training queries, several times as many, which narrows each interval by
 * the square root of that factor. A stricter level was checked on the training split alone (choosing among
 * the judgment-free masks on half of the training queries, measuring on the other half, over many random
 * halvings): a Bonferroni level served the whole query in most draws and gave up most of the gain where the
 * PRF masks help (nfcorpus), while the plain level's losing choices were rare and small. Preferring the
 * highest ratio within one standard error of the best was no better on average. Serving the whole query
 * when a mask truly helps is a loss too, so the plain level is kept.
 */
public final class MaskSelection {

    /**
     * The served candidate (null: the whole query), its mean paired difference to the whole query, and the lower
     * bound that admitted it (0 when none was admitted).
     */
    public record Choice(MaskCrossValidation.Candidate served, double meanDifference, double lowerBound) {

        public boolean wholeQuery() {
            return served == null;
        }
    }

    private MaskSelection() {}

    public static Choice choose(List<MaskCrossValidation.Candidate> candidates, Scores full) {
        Choice best = new Choice(null, 0, 0);
        for (MaskCrossValidation.Candidate c : candidates) {
            double mean = c.scores().pairedDifference(full)[0];
            if (mean > best.meanDifference()) {
                double lower = Selection.lowerBound(c.scores(), full);
                if (lower > 0) {
                    best = new Choice(c, mean, lower);
                }
            }
        }
        return best;
    }
}
