package dev.compress.training.trainer;

import dev.compress.training.data.VectorRows;
import dev.compress.training.sampling.TrainingData;

/**
 * The mean and the principal axes (the decomposed covariance) of a job's corpus vectors, fitted once
 * per {@link TrainingData} ({@link TrainingData#computed}) and shared by everything a job takes from
 * them: an adapter's PCA start ({@link PcaStart}), the PCA baseline of the held-out report ({@link
 * PcaTrainer}) and the intrinsic dimension in a report. The covariance costs n d^2 / 2 multiply-adds
 * and its decomposition about 6 d^3 operations, minutes at thousands of dimensions; each part used to
 * fit its own.
 */
public final class CorpusPca {

    final double[] mean;
    final SymmetricEigen axes;

    private CorpusPca(double[] mean, SymmetricEigen axes) {
        this.mean = mean;
        this.axes = axes;
    }

    /** The corpus PCA of {@code data}, fitted on the first call. */
    static CorpusPca of(TrainingData data) {
        return data.computed().get(CorpusPca.class, () -> fit(data.corpus()));
    }

    /**
     * Heap a job's corpus PCA takes at {@code dim} dimensions, or 0 for {@code method}s that fit none
     * (truncation, the mask predictor): the covariance, d x d doubles, and what its decomposition
     * adds ({@link SymmetricEigen#workingBytes}). It is the part of a job's heap that grows with the
     * square of the dimension: about 134 MB at 4,096 dimensions, 2 GB at 16,000.
     */
    public static long heapBytes(String method, int dim) {
        if (method.equals(TruncationTrainer.METHOD) || method.equals(QueryMaskTrainer.METHOD)) {
            return 0;
        }
        return (long) dim * dim * Double.BYTES + SymmetricEigen.workingBytes(dim) + (long) dim * Double.BYTES;
    }

    /** Fits the corpus PCA of {@code corpus} (two streamed passes, O(d^2) memory). */
    static CorpusPca fit(VectorRows corpus) {
        double[] mean = PcaTrainer.mean(corpus);
        return new CorpusPca(mean, SymmetricEigen.of(PcaTrainer.covariance(corpus, mean)));
    }
}
