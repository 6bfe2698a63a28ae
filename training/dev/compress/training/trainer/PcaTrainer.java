package dev.compress.training.trainer;

import dev.compress.training.data.Progress;
import dev.compress.training.data.VectorRows;
import dev.compress.training.model.LayerSpec;
import dev.compress.training.model.ModelArtifact;
import dev.compress.training.model.ModelMetadata;
import dev.compress.training.model.Tensor;
import dev.compress.training.sampling.TrainingData;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * PCA baseline (no labels): principal axes of the corpus vectors' covariance; the model projects onto
 * the first max(dims) axes, so one model serves every requested dimension as a prefix (components are
 * ordered by variance). Output rows are L2-normalised (cosine in the projected space).
 *
 * <p>{@code centred = false} projects x itself (bias 0), which keeps the component the vectors share
 * and ranked better on scifact at 64-d (the quality section of {@code bench/run} measures both);
 * {@code centred = true} projects x - mean. The report carries the intrinsic dimensionality: the
 * number of components that explain 95% of the variance.
 *
 * <p>The fit uses the whole corpus, not a sample: mean and covariance are sums over rows, taken in two
 * streamed passes over the corpus blocks, so memory is O(d^2) whatever the corpus size (and a mapped
 * corpus gives exactly the in-heap result). The cost, n d^2 / 2 multiply-adds, is that of an exact search for d / 2 queries.
 */
public final class PcaTrainer implements Trainer {

    public static final String METHOD = "pca";

    private final List<Integer> dims;
    private final boolean centred;

    public PcaTrainer(List<Integer> dims, boolean centred) {
        this.dims = dims.stream().sorted().toList();
        this.centred = centred;
    }

    @Override
    public String method() {
        return METHOD;
    }

    @Override
    public TrainedModel train(TrainingData data, TrainingListener listener) {
        long start = System.nanoTime();
        VectorRows corpus = data.corpus();
        int d = corpus.dim();
        int k = dims.get(dims.size() - 1);
        if (k > d) {
            throw new IllegalArgumentException("PCA dims " + k + " exceed the input dimension " + d);
        }
        CorpusPca pca = CorpusPca.of(data);
        double[] mean = pca.mean;
        SymmetricEigen eig = pca.axes;
        float[] weight = new float[k * d];
        float[] bias = new float[k];
        for (int c = 0; c < k; c++) {
            double shift = 0;
            for (int j = 0; j < d; j++) {
                weight[c * d + j] = (float) eig.vectors[c][j];
                shift += eig.vectors[c][j] * mean[j];
            }
            bias[c] = centred ? (float) -shift : 0f;
        }
        Map<String, Object> params = new LinkedHashMap<>();
        params.put("dims", dims);
        params.put("centred", centred);
        params.put("fittedOn", "corpus vectors (" + corpus.size() + ")");
        params.put("intrinsicDimension95", intrinsicDimension(eig.values, 0.95));
        ModelMetadata metadata = new ModelMetadata(
                METHOD,
                d,
                dims,
                ModelMetadata.OUTPUT_EMBEDDING,
                ModelMetadata.NORM_L2,
                1,
                List.of(LayerSpec.linear("proj", d, k)),
                Map.of(),
                params,
                Map.of());
        Map<String, Tensor> tensors = new LinkedHashMap<>();
        tensors.put("proj.weight", new Tensor("proj.weight", new int[] {k, d}, weight));
        tensors.put("proj.bias", new Tensor("proj.bias", new int[] {k}, bias));
        double seconds = (System.nanoTime() - start) / 1e9;
        EpochStats fit = new EpochStats(1, Map.of(), null, null, seconds, 0);
        listener.onEpoch(fit, 1);
        return new TrainedModel(
                new ModelArtifact(metadata, tensors),
                new TrainingReport(METHOD, "cpu (plain Java)", params, List.of(fit), 1, null, seconds, null));
    }

    static double[] mean(VectorRows v) {
        int d = v.dim();
        double[] mean = new double[d];
        v.forEachBlock((start, count, x) -> {
            for (int i = 0; i < count; i++) {
                for (int j = 0; j < d; j++) {
                    mean[j] += x[i * d + j];
                }
            }
        });
        for (int j = 0; j < d; j++) {
            mean[j] /= v.size();
        }
        return mean;
    }

    /** Rows centred together, whose products are then added tile by tile ({@link CovarianceTiles}). */
    private static final int COVARIANCE_CHUNK_ROWS = 64;

    /** Sample covariance of the rows of {@code v} around {@code mean}, as a full symmetric matrix. */
    static double[][] covariance(VectorRows v, double[] mean) {
        return covariance(v, mean, Progress.NONE);
    }

    /** {@link #covariance(VectorRows, double[])}, telling {@code added} how many rows it has added. */
    static double[][] covariance(VectorRows v, double[] mean, Progress added) {
        int d = v.dim();
        double[][] cov = new double[d][d];
        double[][] chunk = new double[COVARIANCE_CHUNK_ROWS][d];
        v.forEachBlock((start, count, x) -> {
            for (int r0 = 0; r0 < count; r0 += COVARIANCE_CHUNK_ROWS) {
                int rows = Math.min(COVARIANCE_CHUNK_ROWS, count - r0);
                for (int r = 0; r < rows; r++) {
                    double[] row = chunk[r];
                    for (int j = 0; j < d; j++) {
                        row[j] = x[(r0 + r) * d + j] - mean[j];
                    }
                }
                CovarianceTiles.add(chunk, rows, cov);
            }
            added.done(start + count, v.size());
        });
        for (int a = 0; a < d; a++) {
            for (int b = a; b < d; b++) {
                cov[a][b] /= v.size() - 1;
                cov[b][a] = cov[a][b];
            }
        }
        return cov;
    }

    /** Intrinsic dimensionality of a vector set: PCA components (centred) explaining {@code fraction} of the variance. */
    public static int intrinsicDimension(VectorRows v, double fraction) {
        return intrinsicDimension(CorpusPca.fit(v).axes.values, fraction);
    }

    /** {@link #intrinsicDimension(VectorRows, double)} of {@code data}'s corpus, from the job's one corpus PCA. */
    static int intrinsicDimension(TrainingData data, double fraction) {
        return intrinsicDimension(CorpusPca.of(data).axes.values, fraction);
    }

    /** Smallest number of leading components whose eigenvalues reach {@code fraction} of the total variance. */
    static int intrinsicDimension(double[] eigenvalues, double fraction) {
        double total = 0;
        for (double v : eigenvalues) {
            total += Math.max(v, 0);
        }
        double acc = 0;
        for (int i = 0; i < eigenvalues.length; i++) {
            acc += Math.max(eigenvalues[i], 0);
            if (acc >= fraction * total) {
                return i + 1;
            }
        }
        return eigenvalues.length;
    }
}
