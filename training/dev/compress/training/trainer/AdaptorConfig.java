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
 * <p>Defaults (the papers give no values that transfer): lr 3e-3, alpha = 0.01, beta = 0.1 (Matryoshka) / 0
 * (Search), 30 epochs with patience 8. Measured on scifact's validation slice (bge-small, 6 epochs):
 * with alpha = 0.1 the L1 term (about 1.3 per vector after the first steps) outweighed the rank loss and
 * Search-Adaptor's validation nDCG@10 did not move from the frozen 0.7531; at alpha = 0.01 it reached
 * 0.784. Matryoshka-Adaptor at 64 dims: 0.5425 (frozen prefix) -> 0.611 with beta = 1, -> 0.732 with
 * beta = 0.1.
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
    String device
) {

    public AdaptorConfig {
        dims = dims.stream().sorted().toList();
        if (dims.isEmpty() || batchSize < 2 || epochs < 0) {
            throw new IllegalArgumentException("need dims, batchSize >= 2, epochs >= 0");
        }
    }

    public static AdaptorConfig matryoshkaAdaptor(List<Integer> dims) {
        return new AdaptorConfig(dims, true, 0, 20, 0.01, 0.1, 3e-3, 0.01, 128, 30, 8, 0.5, 0, 0L, "auto");
    }

    public static AdaptorConfig searchAdaptor(List<Integer> dims) {
        return new AdaptorConfig(dims, false, 0, 20, 0.01, 0.0, 3e-3, 0.01, 128, 30, 8, 0.5, 0, 0L, "auto");
    }

    public int hidden(int inputDim) {
        return hidden > 0 ? hidden : inputDim;
    }

    public AdaptorConfig withEpochs(int e) {
        return new AdaptorConfig(dims, nested, hidden, rankScale, recoveryWeight, pairWeight, learningRate, weightDecay,
            batchSize, e, patience, hardNegativeFraction, maxTripletsPerEpoch, seed, device);
    }

    public AdaptorConfig withSeed(long s) {
        return new AdaptorConfig(dims, nested, hidden, rankScale, recoveryWeight, pairWeight, learningRate, weightDecay,
            batchSize, epochs, patience, hardNegativeFraction, maxTripletsPerEpoch, s, device);
    }

    public AdaptorConfig withDevice(String d) {
        return new AdaptorConfig(dims, nested, hidden, rankScale, recoveryWeight, pairWeight, learningRate, weightDecay,
            batchSize, epochs, patience, hardNegativeFraction, maxTripletsPerEpoch, seed, d);
    }

    public AdaptorConfig withLearningRate(double lr) {
        return new AdaptorConfig(dims, nested, hidden, rankScale, recoveryWeight, pairWeight, lr, weightDecay,
            batchSize, epochs, patience, hardNegativeFraction, maxTripletsPerEpoch, seed, device);
    }

    public AdaptorConfig withPatience(int p) {
        return new AdaptorConfig(dims, nested, hidden, rankScale, recoveryWeight, pairWeight, learningRate, weightDecay,
            batchSize, epochs, p, hardNegativeFraction, maxTripletsPerEpoch, seed, device);
    }

    public AdaptorConfig withWeights(double recovery, double pair) {
        return new AdaptorConfig(dims, nested, hidden, rankScale, recovery, pair, learningRate, weightDecay,
            batchSize, epochs, patience, hardNegativeFraction, maxTripletsPerEpoch, seed, device);
    }

    public AdaptorConfig withMaxTripletsPerEpoch(int max) {
        return new AdaptorConfig(dims, nested, hidden, rankScale, recoveryWeight, pairWeight, learningRate, weightDecay,
            batchSize, epochs, patience, hardNegativeFraction, max, seed, device);
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
