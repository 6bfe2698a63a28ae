package dev.compress.training.trainer;

/** Progress callback for a training job (the plugin maps it onto the model's state document). */
public interface TrainingListener {

    TrainingListener NONE = (stats, total) -> {};

    /** Called after each epoch (epoch 0 = the untrained starting point, when a trainer measures it). */
    void onEpoch(EpochStats stats, int totalEpochs);

    /**
     * Called as work after the epochs advances, such as the folds of a cross-validation: {@code
     * done} of {@code total} units of {@code phase}, first with {@code done = 0}.
     */
    default void onPhase(String phase, int done, int total) {}

    /** Polled between steps; true asks the trainer to stop and return the best model so far. */
    default boolean stopRequested() {
        return false;
    }
}
