package dev.compress.training.trainer;

import dev.compress.training.eval.Scores;
import dev.compress.training.sampling.TripletSampler;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiPredicate;
import java.util.function.DoubleSupplier;
import java.util.function.IntFunction;
import java.util.function.Supplier;
import java.util.function.ToDoubleFunction;
import java.util.function.ToIntFunction;

/**
 * The one epoch loop of every trainer that learns by gradient steps: epoch 0 measures the start, each epoch
 * visits that epoch's items (triplets, or queries for the mask predictor) in batches, then validation decides
 * whether this epoch's weights are the best so far; {@code patience} epochs without a better one stop training
 * (0 = never stop early), and so does the listener (the training budget, a cancel). A final batch of fewer than
 * 2 items is skipped (batch norm needs 2). What validation measures and which of two results is better is the
 * {@link Validation}'s: ranking quality ({@link Validation#ndcg}) ends with {@link Selection} deciding between
 * the best epoch and the start, so a trainer never ships weights that did not beat where it began; a loss
 * ({@link Validation#loss}) ships its best epoch.
 */
final class EpochLoop {

    /**
     * One optimisation step over items [start, start + n) of an epoch; returns each loss component's value
     * and, when the plan names a statistic, that step's statistic last (e.g. DIVE's share of active triplets).
     */
    interface Step<B> {
        double[] run(B epoch, int start, int n);
    }

    /** Picks what ships once training stops; null ships the best epoch. */
    interface Selector<V> {
        Selection choose(int startEpoch, V start, int bestEpoch, V best);
    }

    /**
     * How the loop validates the current weights: the measurement, the figure an epoch records, which of two
     * measurements is better, and the rule for what ships.
     *
     * @param name the loss name the figure is recorded under; null records it as validation nDCG@10
     */
    record Validation<V>(
            Supplier<V> measure,
            ToDoubleFunction<V> figure,
            BiPredicate<V, V> better,
            String name,
            Selector<V> selector) {

        /** nDCG@10 with its per-query values, higher is better; {@link Selection} decides against the start. */
        static Validation<Scores> ndcg(Supplier<Scores> measure) {
            return new Validation<>(measure, Scores::ndcg, (a, b) -> a.ndcg() > b.ndcg(), null, Selection::choose);
        }

        /**
         * A nested model's nDCG@10 at each served dimension: epochs are ranked by the mean over them, and
         * {@link Selection#chooseNested} also refuses a best epoch below the start at any one of them.
         */
        static Validation<PrefixScores> nestedNdcg(Supplier<PrefixScores> measure) {
            return new Validation<>(
                    measure,
                    p -> p.mean().ndcg(),
                    (a, b) -> a.mean().ndcg() > b.mean().ndcg(),
                    null,
                    Selection::chooseNested);
        }

        /** A validation loss recorded as {@code name}, lower is better; the best epoch ships. */
        static Validation<Double> loss(String name, DoubleSupplier measure) {
            return new Validation<>(measure::getAsDouble, v -> v, (a, b) -> a < b, name, (s, sv, b, bv) -> null);
        }
    }

    /**
     * {@code shipped} holds the weights of {@link #shippedEpoch()}; {@code selection} is null when the
     * validation ships its best epoch without a test against the start.
     */
    record Result(
            List<EpochStats> epochs,
            Selection selection,
            int bestEpoch,
            double bestFigure,
            Map<String, float[]> shipped) {

        int shippedEpoch() {
            return selection == null ? bestEpoch : selection.shippedEpoch();
        }

        double shippedNdcg() {
            return selection == null ? bestFigure : selection.shippedNdcg();
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

    /** The triplet trainers' loop: each epoch is the sampler's triplets for it. */
    static <V> Result run(
            Plan plan,
            TripletSampler sampler,
            TrainingListener listener,
            Step<TripletSampler.Triplets> step,
            Validation<V> validation,
            Supplier<Map<String, float[]>> snapshot) {
        return run(plan, sampler::epoch, TripletSampler.Triplets::size, listener, step, validation, snapshot);
    }

    static <B, V> Result run(
            Plan plan,
            IntFunction<B> epochs,
            ToIntFunction<B> size,
            TrainingListener listener,
            Step<B> step,
            Validation<V> validation,
            Supplier<Map<String, float[]>> snapshot) {
        List<EpochStats> stats = new ArrayList<>();
        long t0 = System.nanoTime();
        V start = validation.measure().get();
        stats.add(record(
                plan.firstEpoch(), new LinkedHashMap<>(), null, validation, start, 0, TrainerSupport.seconds(t0)));
        listener.onEpoch(stats.get(0), plan.totalEpochs());
        Map<String, float[]> startWeights = snapshot.get();
        Map<String, float[]> best = startWeights;
        V bestValue = start;
        int bestEpoch = plan.firstEpoch();
        int values = plan.lossNames().size() + (plan.statistic() == null ? 0 : 1);
        for (int e = 1; e <= plan.epochs() && !listener.stopRequested(); e++) {
            int epoch = plan.firstEpoch() + e;
            long te = System.nanoTime();
            B items = epochs.apply(epoch);
            int n = size.applyAsInt(items);
            double[] sums = new double[values];
            int steps = 0;
            for (int s = 0; s + 1 < n && !listener.stopRequested(); s += plan.batch()) {
                double[] v = step.run(items, s, Math.min(plan.batch(), n - s));
                for (int i = 0; i < values; i++) {
                    sums[i] += v[i];
                }
                steps++;
            }
            double trainSeconds = TrainerSupport.seconds(te);
            long tv = System.nanoTime();
            V value = validation.measure().get();
            Map<String, Double> losses = new LinkedHashMap<>();
            for (int i = 0; i < plan.lossNames().size(); i++) {
                losses.put(plan.lossNames().get(i), sums[i] / Math.max(1, steps));
            }
            Double statistic = plan.statistic() == null ? null : sums[values - 1] / Math.max(1, steps);
            EpochStats s =
                    record(epoch, losses, statistic, validation, value, trainSeconds, TrainerSupport.seconds(tv));
            stats.add(s);
            listener.onEpoch(s, plan.totalEpochs());
            if (validation.better().test(value, bestValue)) {
                bestValue = value;
                bestEpoch = epoch;
                best = snapshot.get();
            } else if (plan.patience() > 0 && epoch - bestEpoch >= plan.patience()) {
                break;
            }
        }
        Selection selection = validation.selector().choose(plan.firstEpoch(), start, bestEpoch, bestValue);
        boolean shipStart = selection != null && selection.shippedStart();
        return new Result(
                List.copyOf(stats),
                selection,
                bestEpoch,
                validation.figure().applyAsDouble(bestValue),
                shipStart ? startWeights : best);
    }

    private static <V> EpochStats record(
            int epoch,
            Map<String, Double> losses,
            Double statistic,
            Validation<V> validation,
            V value,
            double trainSeconds,
            double validationSeconds) {
        double figure = validation.figure().applyAsDouble(value);
        if (validation.name() != null) {
            losses.put(validation.name(), figure);
        }
        return new EpochStats(
                epoch, losses, statistic, validation.name() == null ? figure : null, trainSeconds, validationSeconds);
    }
}
