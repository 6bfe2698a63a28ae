package dev.compress.training.trainer;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * SMEC's settings (SMEC: Rethinking Matryoshka Representation Learning for Retrieval Embedding Compression). alpha = 1 weighs the S-XBM similarity loss against the rank loss, as in
 * the paper.
 *
 * @param dims              target dimensions served (each is the end of a stage)
 * @param epochsPerStage    epoch budget of each stage (a stage ends earlier when validation stops improving
 *                          for {@code patience} epochs: "converged"), after which it is frozen
 * @param gumbelTemperature temperature of the Gumbel-softmax relaxation in ADS
 * @param selectionLearningRate learning rate of ADS's selection logits (the adapter uses {@code learningRate})
 * @param memorySize        S-XBM FIFO size (frozen embeddings of past batches' queries and documents)
 * @param neighbours        S-XBM top-k neighbours per anchor
 * @param adapterInEveryStage false: the adapter trains in stage 1 only and every later stage learns only its
 *                          selection (everything before it frozen); true: the adapter keeps training in every
 *                          stage (only the earlier stages' selections are frozen), S-XBM's teacher is then the
 *                          frozen raw embedding. Default true, chosen on scifact's validation slice (bge-small,
 *                          64 dims), where freezing the adapter after stage 1 scored clearly lower
 */
public record SmecConfig(
        List<Integer> dims,
        int hidden,
        double alpha,
        double rankScale,
        double gumbelTemperature,
        double learningRate,
        double selectionLearningRate,
        double weightDecay,
        int batchSize,
        int epochsPerStage,
        int patience,
        int memorySize,
        int neighbours,
        double hardNegativeFraction,
        int maxTripletsPerEpoch,
        boolean adapterInEveryStage,
        long seed,
        String device) {

    public SmecConfig {
        dims = dims.stream().sorted().toList();
        if (dims.isEmpty() || batchSize < 2 || epochsPerStage < 0 || neighbours < 1 || memorySize < neighbours) {
            throw new IllegalArgumentException(
                    "need dims, batchSize >= 2, epochsPerStage >= 0, memorySize >= neighbours >= 1");
        }
    }

    public static SmecConfig defaults(List<Integer> dims) {
        return new SmecConfig(dims, 0, 1.0, 20, 1.0, 1e-3, 5e-2, 0.01, 128, 20, 5, 1536, 10, 0.5, 0, true, 0L, "auto");
    }

    public int hidden(int inputDim) {
        return hidden > 0 ? hidden : inputDim;
    }

    public SmecConfig withEpochsPerStage(int e) {
        return new SmecConfig(
                dims,
                hidden,
                alpha,
                rankScale,
                gumbelTemperature,
                learningRate,
                selectionLearningRate,
                weightDecay,
                batchSize,
                e,
                patience,
                memorySize,
                neighbours,
                hardNegativeFraction,
                maxTripletsPerEpoch,
                adapterInEveryStage,
                seed,
                device);
    }

    public SmecConfig withDevice(String d) {
        return new SmecConfig(
                dims,
                hidden,
                alpha,
                rankScale,
                gumbelTemperature,
                learningRate,
                selectionLearningRate,
                weightDecay,
                batchSize,
                epochsPerStage,
                patience,
                memorySize,
                neighbours,
                hardNegativeFraction,
                maxTripletsPerEpoch,
                adapterInEveryStage,
                seed,
                d);
    }

    public Map<String, Object> asMap() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("dims", dims);
        m.put("hidden", hidden);
        m.put("alpha", alpha);
        m.put("rankScale", rankScale);
        m.put("gumbelTemperature", gumbelTemperature);
        m.put("learningRate", learningRate);
        m.put("selectionLearningRate", selectionLearningRate);
        m.put("weightDecay", weightDecay);
        m.put("batchSize", batchSize);
        m.put("epochsPerStage", epochsPerStage);
        m.put("patience", patience);
        m.put("memorySize", memorySize);
        m.put("neighbours", neighbours);
        m.put("hardNegativeFraction", hardNegativeFraction);
        m.put("maxTripletsPerEpoch", maxTripletsPerEpoch);
        m.put("adapterInEveryStage", adapterInEveryStage);
        m.put("seed", seed);
        m.put("device", device);
        return m;
    }
}
