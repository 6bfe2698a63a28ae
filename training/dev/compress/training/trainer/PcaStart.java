package dev.compress.training.trainer;

import dev.compress.training.sampling.TrainingData;

/**
 * Where every learned adapter starts: the corpus PCA projection that {@link PcaTrainer} serves, so that an
 * untrained adapter (epoch 0) is exactly PCA at each served dimension and training only moves away from it
 * where validation improves. The projection enters the network as a fixed {@code linear_skip} layer; the
 * learned part is a residual whose last layer starts at zero and decays toward zero.
 *
 * <p>The axes are those of {@link PcaTrainer} with {@code centred = false}: principal axes of the corpus
 * covariance, ordered by variance, projecting x itself (no bias).
 */
final class PcaStart {

    private final double[][] axes;

    private PcaStart(double[][] axes) {
        this.axes = axes;
    }

    /** The principal axes of {@code data}'s corpus ({@link CorpusPca}, fitted once per job). */
    static PcaStart of(TrainingData data) {
        return new PcaStart(CorpusPca.of(data).axes.vectors);
    }

    int dim() {
        return axes.length;
    }

    /**
     * The first {@code rows} axes as a row-major [rows, d] weight. More rows than axes wrap around, so each
     * block of d rows is a full rotation (DIVE's extra heads start as further views of the same space).
     */
    float[] projection(int rows) {
        int d = axes.length;
        float[] w = new float[rows * d];
        for (int r = 0; r < rows; r++) {
            double[] axis = axes[r % d];
            for (int j = 0; j < d; j++) {
                w[r * d + j] = (float) axis[j];
            }
        }
        return w;
    }
}
