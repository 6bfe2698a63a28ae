package dev.compress.training.trainer;

import dev.compress.training.eval.Scores;
import dev.compress.training.sampling.TripletSampler;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The one epoch loop of the triplet-batch trainers: epoch 0 measures the start, each epoch visits the
 * sampler's triplets in batches, then validation nDCG@10 decides whether this epoch's weights are the best
 * so far; {@code patience} epochs without a better one stop training (0 = never stop early). A final batch
 * of fewer than 2 triplets is skipped. At the end {@link Selection} decides between the best epoch and the
 * start, so a trainer never ships weights that did not beat where it began.
 */
final class EpochLoop {

    /**
     * One optimisation step over triplets [start, start + n); returns each loss component's value and,
     * when the loop was given a statistic name, that step's statistic last (e.g. DIVE's share of active triplets).
     */
    interface Step {
        double[] run(TripletSampler.Triplets t, int start, int n);
    }

    /** Validation of the current weights: nDCG@10 with its per-query values. */
    interface Validation {
        Scores run();
    }

    /** {@code shipped} holds the weights of {@link Selection#shippedEpoch()}. */
    record Result(List<EpochStats> epochs, Selection selection, Map<String, float[]> shipped) {

        int shippedEpoch() {
            return selection.shippedEpoch();
        }

        double shippedNdcg() {
            return selection.shippedNdcg();
        }
    }

    /** Fixed parts of a run; {@code statistic} is null when steps return only losses. */
    record Plan(
            int firstEpoch,
            int epochs,
            int patience,
            int batch,
            int totalEpochs,
            List<String> lossNames,
            String statistic) {}

    private EpochLoop() {}

    static Result run(
            Plan plan,
            TripletSampler sampler,
            TrainingListener listener,
            Step step,
            Validation validate,
            Supplier<Map<String, float[]>> snapshot) {
        List<EpochStats> stats = new ArrayList<>();
        long t0 = System.nanoTime();
        Scores start = validate.run();
        stats.add(new EpochStats(plan.firstEpoch(), Map.of(), null, start.ndcg(), 0, TrainerSupport.seconds(t0)));
        listener.onEpoch(stats.get(0), plan.totalEpochs());
        Map<String, float[]> startWeights = snapshot.get();
        Map<String, float[]> best = startWeights;
        Scores bestScores = start;
        int bestEpoch = plan.firstEpoch();
        int values = plan.lossNames().size() + (plan.statistic() == null ? 0 : 1);
        for (int e = 1; e <= plan.epochs() && !listener.stopRequested(); e++) {
            int epoch = plan.firstEpoch() + e;
            long te = System.nanoTime();
            TripletSampler.Triplets t = sampler.epoch(epoch);
            double[] sums = new double[values];
            int steps = 0;
            for (int s = 0; s + 1 < t.size() && !listener.stopRequested(); s += plan.batch()) {
                double[] v = step.run(t, s, Math.min(plan.batch(), t.size() - s));
                for (int i = 0; i < values; i++) {
                    sums[i] += v[i];
                }
                steps++;
            }
            double trainSeconds = TrainerSupport.seconds(te);
            long tv = System.nanoTime();
            Scores scores = validate.run();
            Map<String, Double> losses = new LinkedHashMap<>();
            for (int i = 0; i < plan.lossNames().size(); i++) {
                losses.put(plan.lossNames().get(i), sums[i] / Math.max(1, steps));
            }
            Double statistic = plan.statistic() == null ? null : sums[values - 1] / Math.max(1, steps);
            EpochStats s =
                    new EpochStats(epoch, losses, statistic, scores.ndcg(), trainSeconds, TrainerSupport.seconds(tv));
            stats.add(s);
            listener.onEpoch(s, plan.totalEpochs());
            if (scores.ndcg() > bestScores.ndcg()) {
                bestScores = scores;
                bestEpoch = epoch;
                best = snapshot.get();
            } else if (plan.patience() > 0 && epoch - bestEpoch >= plan.patience()) {
                break;
            }
        }
        Selection selection = Selection.choose(plan.firstEpoch(), start, bestEpoch, bestScores);
        return new Result(List.copyOf(stats), selection, selection.shippedStart() ? startWeights : best);
    }
}
