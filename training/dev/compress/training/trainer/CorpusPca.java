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

    /** The corpus PCA of {@code data}, fitted on the first call ({@link #prepare} fits it with progress and stops). */
    static CorpusPca of(TrainingData data) {
        return data.computed().get(CorpusPca.class, () -> fit(data.corpus(), TrainingListener.NONE));
    }

    /**
     * Fits the corpus PCA of {@code data} ahead of a {@code method} that uses it, telling {@code listener}
     * of the phases {@code corpus_pca_covariance} (rows of the corpus) and {@code corpus_pca_decomposition}
     * (steps), up to twenty times each: at thousands of dimensions they take minutes. A stop the listener
     * asks for ends the fit ({@link ListenerPhase}), since there is no model yet to keep.
     */
    public static void prepare(String method, TrainingData data, TrainingListener listener) {
        if (fitsFor(method)) {
            data.computed().get(CorpusPca.class, () -> fit(data.corpus(), listener));
        }
    }

    /** Whether a job of {@code method} fits the corpus PCA: all but truncation and the mask predictor. */
    private static boolean fitsFor(String method) {
        return method.equals(TruncationTrainer.METHOD) == false && method.equals(QueryMaskTrainer.METHOD) == false;
    }

    /**
     * Heap a job's corpus PCA takes at {@code dim} dimensions, or 0 for {@code method}s that fit none
     * (truncation, the mask predictor): the covariance, d x d doubles, and what its decomposition
     * adds ({@link SymmetricEigen#workingBytes}). It is the part of a job's heap that grows with the
     * square of the dimension: about 134 MB at 4,096 dimensions, 2 GB at 16,000.
     */
    public static long heapBytes(String method, int dim) {
        if (fitsFor(method) == false) {
            return 0;
        }
        return (long) dim * dim * Double.BYTES + SymmetricEigen.workingBytes(dim) + (long) dim * Double.BYTES;
    }

    /** Fits the corpus PCA of {@code corpus} (two streamed passes, O(d^2) memory). */
    static CorpusPca fit(VectorRows corpus) {
        return fit(corpus, TrainingListener.NONE);
    }

    private static CorpusPca fit(VectorRows corpus, TrainingListener listener) {
        double[] mean = PcaTrainer.mean(corpus);
        double[][] covariance =
                PcaTrainer.covariance(corpus, mean, new ListenerPhase("corpus_pca_covariance", listener));
        return new CorpusPca(
                mean, SymmetricEigen.of(covariance, new ListenerPhase("corpus_pca_decomposition", listener)));
    }
}
