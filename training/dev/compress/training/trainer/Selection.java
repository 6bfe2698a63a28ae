package dev.compress.training.trainer;

import dev.compress.training.eval.Scores;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Which weights a trainer ships: the epoch with the best validation nDCG@10, but only when it beats the
 * start (epoch 0: PCA, where every adapter begins) by more than chance on the validation queries; otherwise
 * the start itself. The test is one-sided on paired per-query differences (best - start): the lower end of
 * a {@value #CONFIDENCE} confidence interval, from Student's t with one degree of freedom fewer than the
 * queries, must be above zero (the normal quantile would claim too much from the few validation queries a
 * small set of judgments leaves; a single query gives no interval, so nothing ships on it). The best of
 * many epochs is an optimistic estimate of that epoch, and judgments that carry no signal still yield a best epoch a little above the
 * start on validation; requiring the interval to clear zero keeps such a model from shipping.
 *
 * <p>A nested model serves several dimensions, and epochs are ranked by the mean over them; a gain at one
 * dimension could then hide a loss at another. So it ships its trained weights only if, besides, at every
 * served dimension the best epoch's validation nDCG@10 is not below the start's ({@link #chooseNested}).
 *
 * @param startEpoch        the epoch number of the start
 * @param startNdcg         validation nDCG@10 of the start
 * @param bestEpoch         the trained epoch with the best validation nDCG@10 (the start when none trained)
 * @param bestNdcg          its validation nDCG@10
 * @param lowerBound        lower end of the one-sided interval of the mean paired difference best - start
 * @param shippedEpoch      the epoch whose weights the model holds
 * @param belowStartAt      the served dimensions where the best epoch's validation nDCG@10 is below the start's
 *                          (a nested model), in increasing order; empty otherwise
 */
public record Selection(
        int startEpoch,
        double startNdcg,
        int bestEpoch,
        double bestNdcg,
        double lowerBound,
        int shippedEpoch,
        List<Integer> belowStartAt) {

    public static final String CONFIDENCE = "95%";
    /** One-sided 95% normal quantile. */
    private static final double Z = 1.6448536269514722;

    static Selection choose(int startEpoch, Scores start, int bestEpoch, Scores best) {
        return choose(startEpoch, start, bestEpoch, best, List.of());
    }

    /** As {@link #choose(int, Scores, int, Scores)} on the mean over dimensions, and not below the start at any. */
    static Selection chooseNested(int startEpoch, PrefixScores start, int bestEpoch, PrefixScores best) {
        List<Integer> below = new ArrayList<>();
        if (bestEpoch != startEpoch) {
            start.byDimension().forEach((dim, startScores) -> {
                if (best.byDimension().get(dim).ndcg() < startScores.ndcg()) {
                    below.add(dim);
                }
            });
        }
        return choose(startEpoch, start.mean(), bestEpoch, best.mean(), List.copyOf(below));
    }

    private static Selection choose(
            int startEpoch, Scores start, int bestEpoch, Scores best, List<Integer> belowStartAt) {
        if (bestEpoch == startEpoch) {
            return new Selection(startEpoch, start.ndcg(), startEpoch, start.ndcg(), 0, startEpoch, List.of());
        }
        double lower = lowerBound(best, start);
        boolean ship = lower > 0 && belowStartAt.isEmpty();
        return new Selection(
                startEpoch, start.ndcg(), bestEpoch, best.ndcg(), lower, ship ? bestEpoch : startEpoch, belowStartAt);
    }

    /**
     * Lower end of the one-sided {@value #CONFIDENCE} interval of the mean paired difference candidate - base;
     * NaN for a single query, which gives no interval (and NaN is above no bound).
     */
    static double lowerBound(Scores candidate, Scores base) {
        return lowerBound(candidate.pairedDifference(base), candidate.perQueryNdcg().length);
    }

    /** The same, from a {@link Scores#pairedDifference} over {@code queries} queries already computed. */
    static double lowerBound(double[] difference, int queries) {
        return queries < 2 ? Double.NaN : difference[0] - tQuantile(queries - 1) * difference[1];
    }

    /**
     * Student's t one-sided {@value #CONFIDENCE} quantile at {@code df} degrees of freedom: exact for one and two,
     * beyond them the Cornish-Fisher expansion about the normal quantile, within 0.01 of the exact value from three
     * degrees of freedom on.
     */
    static double tQuantile(int df) {
        if (df == 1) {
            return Math.tan(Math.PI * 0.45);
        }
        if (df == 2) {
            return 0.9 / Math.sqrt(2 * 0.95 * 0.05);
        }
        double z = Z;
        double z3 = z * z * z;
        double z5 = z3 * z * z;
        double z7 = z5 * z * z;
        return z
                + (z3 + z) / (4.0 * df)
                + (5 * z5 + 16 * z3 + 3 * z) / (96.0 * df * df)
                + (3 * z7 + 19 * z5 + 17 * z3 - 15 * z) / (384.0 * df * df * df);
    }

    public boolean shippedStart() {
        return shippedEpoch == startEpoch;
    }

    public double shippedNdcg() {
        return shippedStart() ? startNdcg : bestNdcg;
    }

    public Map<String, Object> asMap() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("shipped", shippedStart() ? "start" : "trained");
        m.put("shipped_epoch", shippedEpoch);
        m.put("start_validation_ndcg@10", startNdcg);
        m.put("best_epoch", bestEpoch);
        m.put("best_validation_ndcg@10", bestNdcg);
        m.put("paired_lower_bound", lowerBound);
        m.put("below_start_at_dimensions", belowStartAt);
        return m;
    }
}
