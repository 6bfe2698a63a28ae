package dev.compress.training.trainer;

import dev.compress.training.sampling.TrainingData;

/**
 * One training method. A trainer is built from its own configuration and turns {@link TrainingData}
 * into a model file ({@link TrainedModel#artifact()}) with a report of how training went. It must
 * select its result using only the training and validation queries in the data, never test queries.
 */
public interface Trainer {

    /** The method name recorded in the model file, e.g. {@code dive}. */
    String method();

    /**
     * Trains, reporting each epoch to {@code listener} and stopping early (keeping the best epoch so far)
     * when {@link TrainingListener#stopRequested()} turns true.
     */
    TrainedModel train(TrainingData data, TrainingListener listener);
}
