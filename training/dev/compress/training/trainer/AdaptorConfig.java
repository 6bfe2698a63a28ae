package dev.compress.training.trainer;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Settings of the residual adaptors ({@link AdaptorTrainer}): Matryoshka-Adaptor ({@code nested = true})
 * and Search-Adaptor ({@code nested = false}).
 *
 * @param dims               the output dimensions served (prefixes of the adapted D-d vector)
 * @param nested             rank (and similarity) losses summed over every prefix in {@code dims} and D
 *                           (Matryoshka-Adaptor), or at D only (Search-Adaptor)
 * @param hidden             hidden width of the adapter MLP (0 = the input dimension)
 * @param rankScale          scores entering the rank loss are cosine * rankScale (see the trainer's note)
 * @param recoveryWeight     alpha of the L1 recovery term
 * @param pairWeight         beta of Matryoshka-Adaptor's pairwise similarity-preservation term (nested only)
 *
 * <p>Defaults (the papers give no values that transfer), chosen on the validation slices of the training
 * splits: lr 1e-3 (3e-3 climbed faster on scifact but overfitted nfcorpus's larger judgment set within a
 * few epochs), alpha = 0.01 (a larger L1 term outweighed the rank loss and validation did not move),
 * beta = 0.1 (Matryoshka) / 0 (Search), up to 100 epochs of at most 16,384 triplets with patience 10,
 * within the training budget. The quality section of {@code bench/run} measures them.
 */
public record AdaptorConfig(
        List<Integer> dims,
        boolean nested,
        int hidden,
        double rankScale,
        double recoveryWeight,
        double pairWeight,
        double learningRate,
        double weightDecay,
        int batchSize,
        int epochs,
        int patience,
        double hardNegativeFraction,
        int maxTripletsPerEpoch,
        long seed,
        String device)
        implements ResidualAdapterTraining.Settings {

    public AdaptorConfig {
        dims = dims.stream().sorted().toList();
        if (dims.isEmpty() || batchSize < 2 || epochs < 0) {
            throw new IllegalArgumentException("need dims, batchSize >= 2, epochs >= 0");
        }
    }

    public static AdaptorConfig matryoshkaAdaptor(List<Integer> dims) {
        return new AdaptorConfig(dims, true, 0, 20, 0.01, 0.1, 1e-3, 0.01, 128, 100, 10, 0.5, 16_384, 0L, "auto");
    }

    public static AdaptorConfig searchAdaptor(List<Integer> dims) {
        return new AdaptorConfig(dims, false, 0, 20, 0.01, 0.0, 1e-3, 0.01, 128, 100, 10, 0.5, 16_384, 0L, "auto");
    }

    public int hidden(int inputDim) {
        return hidden > 0 ? hidden : inputDim;
    }

    public AdaptorConfig withEpochs(int e) {
        return new AdaptorConfig(
                dims,
                nested,
                hidden,
                rankScale,
                recoveryWeight,
                pairWeight,
                learningRate,
                weightDecay,
                batchSize,
                e,
                patience,
                hardNegativeFraction,
                maxTripletsPerEpoch,
                seed,
                device);
    }

    public AdaptorConfig withDevice(String d) {
        return new AdaptorConfig(
                dims,
                nested,
                hidden,
                rankScale,
                recoveryWeight,
                pairWeight,
                learningRate,
                weightDecay,
                batchSize,
                epochs,
                patience,
                hardNegativeFraction,
                maxTripletsPerEpoch,
                seed,
                d);
    }

    public AdaptorConfig withMaxTripletsPerEpoch(int max) {
        return new AdaptorConfig(
                dims,
                nested,
                hidden,
                rankScale,
                recoveryWeight,
                pairWeight,
                learningRate,
                weightDecay,
                batchSize,
                epochs,
                patience,
                hardNegativeFraction,
                max,
                seed,
                device);
    }

    public Map<String, Object> asMap() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("dims", dims);
        m.put("nested", nested);
        m.put("hidden", hidden);
        m.put("rankScale", rankScale);
        m.put("recoveryWeight", recoveryWeight);
        m.put("pairWeight", pairWeight);
        m.put("learningRate", learningRate);
        m.put("weightDecay", weightDecay);
        m.put("batchSize", batchSize);
        m.put("epochs", epochs);
        m.put("patience", patience);
        m.put("hardNegativeFraction", hardNegativeFraction);
        m.put("maxTripletsPerEpoch", maxTripletsPerEpoch);
        m.put("seed", seed);
        m.put("device", device);
        return m;
    }
}
