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

    /** {@code listener}, asking the trainer to stop also once {@code budget} has passed from now. */
    public static Limited limit(TrainingListener listener, Duration budget) {
        return new Limited(listener, System.nanoTime() + budget.toNanos());
    }

    /** A listener under a budget, which says whether the budget has run out. */
    public static final class Limited implements TrainingListener {
        private final TrainingListener listener;
        private final long deadline;

        private Limited(TrainingListener listener, long deadline) {
            this.listener = listener;
            this.deadline = deadline;
        }

        /** Whether the budget has run out: a trainer that returns now was stopped by it, unless it ended first. */
        public boolean expired() {
            return System.nanoTime() - deadline > 0;
        }

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
            return expired() || listener.stopRequested();
        }
    }
}
