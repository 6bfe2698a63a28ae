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

    /** Hard negatives to mine per training query with the frozen vectors, unless the method sets its own. */
    int DEFAULT_HARD_NEGATIVES_PER_QUERY = 100;

    /** How many hard negatives per training query {@link TrainingData} should hold for this trainer. */
    default int hardNegativesPerQuery() {
        return DEFAULT_HARD_NEGATIVES_PER_QUERY;
    }

    /**
     * Trains, reporting each epoch to {@code listener} and stopping early (keeping the best epoch so far)
     * when {@link TrainingListener#stopRequested()} turns true.
     */
    TrainedModel train(TrainingData data, TrainingListener listener);
}
