package dev.compress.training.trainer;

import dev.compress.training.sampling.TripletSampler;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.DoubleSupplier;
import java.util.function.Supplier;

/**
 * The epoch loop shared by the triplet-batch trainers: epoch 0 measures the starting point, each epoch
 * visits every positive pair once (one sampled negative each) in batches, then validation nDCG@10
 * decides whether this epoch's weights are the best so far; {@code patience} epochs without a better
 * one stop training (0 = never stop early). A final batch of fewer than 2 triplets is skipped.
 */
final class EpochLoop {

    /** One optimisation step over triplets [start, start + n); returns each loss component's value. */
    interface Step {
        double[] run(TripletSampler.Triplets t, int start, int n);
    }

    record Result(List<EpochStats> epochs, int bestEpoch, double bestNdcg, Map<String, float[]> best) {}

    private EpochLoop() {}

    /**
     * @param firstEpoch number given to the starting point (0, or where a previous stage ended)
     * @param lossNames  names of the values {@link Step#run} returns, the first being the total
     */
    static Result run(int firstEpoch, int epochs, int patience, int batch, TripletSampler sampler, TrainingListener listener,
                      int totalEpochs, List<String> lossNames, Step step, DoubleSupplier validate,
                      Supplier<Map<String, float[]>> snapshot) {
        List<EpochStats> stats = new ArrayList<>();
        long t0 = System.nanoTime();
        double bestNdcg = validate.getAsDouble();
        stats.add(new EpochStats(firstEpoch, Map.of(), null, bestNdcg, 0, TrainerSupport.seconds(t0)));
        listener.onEpoch(stats.get(0), totalEpochs);
        Map<String, float[]> best = snapshot.get();
        int bestEpoch = firstEpoch;
        for (int e = 1; e <= epochs && !listener.stopRequested(); e++) {
            int epoch = firstEpoch + e;
            long te = System.nanoTime();
            TripletSampler.Triplets t = sampler.epoch(epoch);
            double[] sums = new double[lossNames.size()];
            int steps = 0;
            for (int start = 0; start + 1 < t.size() && !listener.stopRequested(); start += batch) {
                double[] v = step.run(t, start, Math.min(batch, t.size() - start));
                for (int i = 0; i < sums.length; i++) {
                    sums[i] += v[i];
                }
                steps++;
            }
            double trainSeconds = TrainerSupport.seconds(te);
            long tv = System.nanoTime();
            double ndcg = validate.getAsDouble();
            Map<String, Double> losses = new LinkedHashMap<>();
            for (int i = 0; i < sums.length; i++) {
                losses.put(lossNames.get(i), sums[i] / Math.max(1, steps));
            }
            EpochStats s = new EpochStats(epoch, losses, null, ndcg, trainSeconds, TrainerSupport.seconds(tv));
            stats.add(s);
            listener.onEpoch(s, totalEpochs);
            if (ndcg > bestNdcg) {
                bestNdcg = ndcg;
                bestEpoch = epoch;
                best = snapshot.get();
            } else if (patience > 0 && epoch - bestEpoch >= patience) {
                break;
            }
        }
        return new Result(List.copyOf(stats), bestEpoch, bestNdcg, best);
    }
}
