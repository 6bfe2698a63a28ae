package dev.compress.training.trainer;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertSame;
import static org.junit.Assert.assertTrue;

import dev.compress.training.eval.Scores;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.Test;

/** The served mask must win on queries the rule did not choose on, not only be the best of many on all of them. */
public class MaskSelectionTests {

    private static final int QUERIES = 500;
    private final Folds folds = Folds.of(QUERIES, 5, 11);
    private final Scores full = full();

    private static Scores full() {
        Random r = new Random(3);
        double[] ndcg = new double[QUERIES];
        for (int i = 0; i < QUERIES; i++) {
            ndcg[i] = 0.3 + 0.4 * r.nextDouble();
        }
        return Scores.of(ndcg, new double[QUERIES]);
    }

    /** The whole query plus {@code gain} of each query and a little noise, as one mask at {@code ratio}. */
    private MaskCrossValidation.Candidate candidate(
            double ratio, java.util.function.IntToDoubleFunction gain, long seed) {
        Random r = new Random(seed);
        double[] ndcg = new double[QUERIES];
        for (int i = 0; i < QUERIES; i++) {
            ndcg[i] = full.perQueryNdcg()[i] + gain.applyAsDouble(i) + 0.002 * r.nextGaussian();
        }
        return new MaskCrossValidation.Candidate("norm", Double.NaN, ratio, Scores.of(ndcg, new double[QUERIES]));
    }

    /**
     * Each candidate gains much on the queries of one fold and loses a little on all others: every one of them
     * beats the whole query over all queries by more than chance, but a choice made without a fold's queries
     * picks a candidate that loses on that fold. The whole query is served.
     */
    @Test
    public void aWinnerOnlyOnTheQueriesItWasChosenOnIsNotServed() {
        List<MaskCrossValidation.Candidate> candidates = new ArrayList<>();
        for (int f = 0; f < folds.k(); f++) {
            int fold = f;
            candidates.add(candidate(0.1 * (f + 1), q -> folds.foldOf()[q] == fold ? 0.3 : -0.02, f));
        }
        for (MaskCrossValidation.Candidate c : candidates) {
            assertTrue(Selection.lowerBound(c.scores(), full) > 0);
        }
        MaskSelection.Choice choice = MaskSelection.choose(candidates, full, folds);
        assertNull(choice.served());
        assertEquals(-0.02, choice.outOfFoldGain(), 0.001);
        assertTrue(choice.outOfFoldLowerBound() < 0);
        assertEquals(0, choice.lowerBound(), 0);
    }

    /** A candidate that gains a little on every query is served, and its out-of-fold gain is that gain. */
    @Test
    public void aWinnerOnEveryFoldIsServed() {
        List<MaskCrossValidation.Candidate> candidates = new ArrayList<>();
        candidates.add(candidate(0.3, q -> -0.01, 1));
        MaskCrossValidation.Candidate steady = candidate(0.5, q -> 0.01, 2);
        candidates.add(steady);
        MaskSelection.Choice choice = MaskSelection.choose(candidates, full, folds);
        assertSame(steady, choice.served());
        assertEquals(0.01, choice.meanDifference(), 0.001);
        assertEquals(0.01, choice.outOfFoldGain(), 0.001);
        assertTrue(choice.lowerBound() > 0);
        assertTrue(choice.outOfFoldLowerBound() > 0);
    }
}
