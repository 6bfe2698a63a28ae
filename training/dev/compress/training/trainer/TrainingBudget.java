package dev.compress.training.trainer;

import java.time.Duration;

/**
 * A wall-clock limit on training: the wrapped listener asks the trainer to stop once the budget is spent,
 * and the trainer ships what its selection chose so far (the start at worst). The limit keeps a default
 * {@code _train} within minutes on a CPU node whatever the size of the judgment set.
 */
public final class TrainingBudget {

    /** The default limit of one model's training. */
    public static final Duration DEFAULT = Duration.ofMinutes(8);

    private TrainingBudget() {}

    public static TrainingListener limit(TrainingListener listener, Duration budget) {
        long deadline = System.nanoTime() + budget.toNanos();
        return new TrainingListener() {
            @Override
            public void onEpoch(EpochStats stats, int totalEpochs) {
                listener.onEpoch(stats, totalEpochs);
            }

            @Override
            public void onPhase(String phase, int done, int total) {
                listener.onPhase(phase, done, total);
            }

            @Override
            public boolean stopRequested() {
                return System.nanoTime() - deadline > 0 || listener.stopRequested();
            }
        };
    }
}
