package dev.compress.training.inference;

/**
 * Maps raw vectors to a model's output space: the adapted embedding (prefix of {@link #outputDim()}
 * values, L2-normalised when the model says so) or, for a mask predictor, one score per input
 * dimension. Implementations are thread-safe for concurrent {@link #encode} calls.
 */
public interface Encoder extends AutoCloseable {

    int inputDim();

    int outputDim();

    /** Encodes a batch; every row must have {@link #inputDim()} values. */
    float[][] encode(float[][] batch);

    default float[] encode(float[] vector) {
        return encode(new float[][] {vector})[0];
    }

    /** Releases native memory, if any. */
    @Override
    default void close() {}
}
