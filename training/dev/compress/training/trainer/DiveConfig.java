package dev.compress.training.trainer;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * DIVE's settings. Paper defaults (DIVE: Embedding Compression via Self-Limiting Gradient Updates): AdamW lr 2e-4, batch 128, 50 epochs, margin in
 * {0.2..1.3}, lambda in {0.05, 0.1, 0.3}, tau in {0.05, 0.1, 0.2}, H in {4, 8}.
 *
 * <p>Hidden sizes: the paper's 2048/1024 serve 4,096-d inputs, i.e. D/2 and D/4. For small inputs
 * that would squeeze below the heads' total width (384/4 = 96 < 4 x 64), so 0 ("auto") means
 * max(D/2, H*k) and max(D/4, H*k).
 *
 * <p>Options beyond the paper, for generalisation to unseen queries (0 / false = the paper's recipe):
 * <ul>
 *   <li>{@code preserveWeight}: weight of a similarity-preservation loss that keeps head 1's
 *       query->document score distribution close to the frozen space's (KL between softmaxes at
 *       {@code preserveTemperature}), on the batch's queries and on as many random corpus documents
 *       used as pseudo-queries; it regularises toward the frozen geometry where judgments are silent;</li>
 *   <li>{@code patience}: early stopping after that many epochs without a better validation nDCG@10
 *       (the best epoch's weights are kept in any case);</li>
 *   <li>{@code weightDecay}: AdamW's decoupled decay.</li>
 * </ul>
 *
 * <p>{@code maxTripletsPerEpoch} (0 = all): an epoch is one pass over every judged positive pair; large
 * judgment sets (nfcorpus train: 110k pairs) can cap it to a fresh random subset each epoch, so that
 * validation and early stopping happen often enough.
 */
public record DiveConfig(
        int dims,
        int heads,
        double margin,
        double lambda,
        double tau,
        double learningRate,
        double weightDecay,
        int batchSize,
        int epochs,
        int patience,
        int hidden1,
        int hidden2,
        double hardNegativeFraction,
        int hardNegativesPerQuery,
        int maxTripletsPerEpoch,
        double preserveWeight,
        double preserveTemperature,
        boolean scaledMargin,
        long seed,
        String device) {

    /** The paper's recipe at {@code dims}, with the mid-range margin/lambda/tau, an absolute margin and no extra regularisation. */
    public static DiveConfig paper(int dims) {
        return new DiveConfig(
                dims, 4, 0.5, 0.1, 0.1, 2e-4, 0.01, 128, 50, 0, 0, 0, 0.5, 100, 0, 0.0, 0.05, false, 0L, "auto");
    }

    /**
     * The recommended recipe: the paper's plus similarity preservation (weight 1) and early stopping on
     * validation (patience 15), at lr 1e-3, with epochs of at most 16,384 triplets so that a large judgment
     * set is validated (and can stop early) often enough within the training budget. The higher rate because
     * a small judgment set gives few steps per epoch: at the paper's 2e-4 validation nDCG@10 still rises
     * when the epochs run out, and 2e-3 overshoots. Up to 200 epochs, a ceiling that patience or the
     * training budget reach first, since the best validation epoch can come late. The quality section of
     * {@code bench/run} measures the recipe.
     */
    public static DiveConfig regularised(int dims) {
        return paper(dims)
                .withPreserve(1.0)
                .withPatience(15)
                .withLearningRate(1e-3)
                .withMaxTripletsPerEpoch(16_384)
                .withEpochs(200);
    }

    public DiveConfig {
        if (dims <= 0 || heads <= 0 || batchSize < 2 || epochs < 0) {
            throw new IllegalArgumentException("need dims > 0, heads > 0, batchSize >= 2, epochs >= 0");
        }
    }

    public int hidden1(int inputDim) {
        return hidden1 > 0 ? hidden1 : Math.max(inputDim / 2, heads * dims);
    }

    public int hidden2(int inputDim) {
        return hidden2 > 0 ? hidden2 : Math.max(inputDim / 4, heads * dims);
    }

    public DiveConfig withEpochs(int e) {
        return new DiveConfig(
                dims,
                heads,
                margin,
                lambda,
                tau,
                learningRate,
                weightDecay,
                batchSize,
                e,
                patience,
                hidden1,
                hidden2,
                hardNegativeFraction,
                hardNegativesPerQuery,
                maxTripletsPerEpoch,
                preserveWeight,
                preserveTemperature,
                scaledMargin,
                seed,
                device);
    }

    public DiveConfig withPreserve(double w) {
        return new DiveConfig(
                dims,
                heads,
                margin,
                lambda,
                tau,
                learningRate,
                weightDecay,
                batchSize,
                epochs,
                patience,
                hidden1,
                hidden2,
                hardNegativeFraction,
                hardNegativesPerQuery,
                maxTripletsPerEpoch,
                w,
                preserveTemperature,
                scaledMargin,
                seed,
                device);
    }

    public DiveConfig withPatience(int p) {
        return new DiveConfig(
                dims,
                heads,
                margin,
                lambda,
                tau,
                learningRate,
                weightDecay,
                batchSize,
                epochs,
                p,
                hidden1,
                hidden2,
                hardNegativeFraction,
                hardNegativesPerQuery,
                maxTripletsPerEpoch,
                preserveWeight,
                preserveTemperature,
                scaledMargin,
                seed,
                device);
    }

    public DiveConfig withLearningRate(double lr) {
        return new DiveConfig(
                dims,
                heads,
                margin,
                lambda,
                tau,
                lr,
                weightDecay,
                batchSize,
                epochs,
                patience,
                hidden1,
                hidden2,
                hardNegativeFraction,
                hardNegativesPerQuery,
                maxTripletsPerEpoch,
                preserveWeight,
                preserveTemperature,
                scaledMargin,
                seed,
                device);
    }

    public DiveConfig withMaxTripletsPerEpoch(int max) {
        return new DiveConfig(
                dims,
                heads,
                margin,
                lambda,
                tau,
                learningRate,
                weightDecay,
                batchSize,
                epochs,
                patience,
                hidden1,
                hidden2,
                hardNegativeFraction,
                hardNegativesPerQuery,
                max,
                preserveWeight,
                preserveTemperature,
                scaledMargin,
                seed,
                device);
    }

    public DiveConfig withDevice(String d) {
        return new DiveConfig(
                dims,
                heads,
                margin,
                lambda,
                tau,
                learningRate,
                weightDecay,
                batchSize,
                epochs,
                patience,
                hidden1,
                hidden2,
                hardNegativeFraction,
                hardNegativesPerQuery,
                maxTripletsPerEpoch,
                preserveWeight,
                preserveTemperature,
                scaledMargin,
                seed,
                d);
    }

    public Map<String, Object> asMap() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("dims", dims);
        m.put("heads", heads);
        m.put("margin", margin);
        m.put("lambda", lambda);
        m.put("tau", tau);
        m.put("learningRate", learningRate);
        m.put("weightDecay", weightDecay);
        m.put("batchSize", batchSize);
        m.put("epochs", epochs);
        m.put("patience", patience);
        m.put("hidden1", hidden1);
        m.put("hidden2", hidden2);
        m.put("hardNegativeFraction", hardNegativeFraction);
        m.put("hardNegativesPerQuery", hardNegativesPerQuery);
        m.put("maxTripletsPerEpoch", maxTripletsPerEpoch);
        m.put("preserveWeight", preserveWeight);
        m.put("preserveTemperature", preserveTemperature);
        m.put("scaledMargin", scaledMargin);
        m.put("seed", seed);
        m.put("device", device);
        return m;
    }
}
