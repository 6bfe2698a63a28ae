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
final class CorpusPca {

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

    /** Fits the corpus PCA of {@code corpus} (two streamed passes, O(d^2) memory). */
    static CorpusPca fit(VectorRows corpus) {
        double[] mean = PcaTrainer.mean(corpus);
        return new CorpusPca(mean, SymmetricEigen.of(PcaTrainer.covariance(corpus, mean)));
    }
}
