package dev.compress.training.trainer;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Settings of the query-mask predictor (Learning to Select: Query-Aware Adaptive Dimension Selection for Dense Retrieval). Paper values: M = 64 negatives sampled from the top
 * K = 1000 non-relevant documents, tau = 0.01 with a validation grid, one Linear D -> D with dropout
 * 0.1, AdamW lr 1e-4, weight decay 0.01, batch 256, best epoch by validation KL. The layer here reads the
 * query's first-pass feedback as well (2D -> D: {@link QueryMaskTrainer}).
 *
 * <p>One deviation in {@link #paper}: lr 1e-3. A small judgment set gives few steps per epoch, and at
 * 1e-4 validation KL is still falling when the epochs run out. The grid is {0.01 (paper default), 0.03, 0.1,
 * 0.3}; 200 epochs, each tau stopping after {@value QueryMaskTrainer#PATIENCE} epochs without a lower
 * validation KL. Taus below 0.01 scored lower on scifact's validation slice: with unit vectors r is a
 * few ten-thousandths per dimension, so every tau >= 0.01 makes a nearly uniform target and the KL close
 * to a least-squares fit of r / tau, while smaller taus peak the target and fit worse. The query-mask
 * section of {@code bench/run quality} measures the result.
 *
 * @param ratio  the retained ratio at which the tau grid is judged (validation masked nDCG@10)
 * @param taus   the tau grid ({@code tau} first); a single entry skips the grid
 * @param folds  K of the K-fold cross-validation over the training queries that chooses the served mask
 */
public record QueryMaskConfig(
        double ratio,
        List<Double> taus,
        int negativesSampled,
        int negativePool,
        double dropout,
        double learningRate,
        double weightDecay,
        int batchSize,
        int epochs,
        long seed,
        String device,
        int folds) {

    /** Folds of the cross-validation that chooses the served mask ({@link MaskCrossValidation}). */
    public static final int DEFAULT_FOLDS = 5;

    public QueryMaskConfig {
        taus = List.copyOf(taus);
        if (taus.isEmpty()
                || batchSize < 1
                || epochs < 0
                || !(ratio > 0 && ratio <= 1)
                || dropout < 0
                || dropout >= 1
                || folds < 2) {
            throw new IllegalArgumentException(
                    "need taus, batchSize >= 1, epochs >= 0, ratio in (0, 1], dropout in [0, 1), folds >= 2");
        }
    }

    public static QueryMaskConfig paper(double ratio) {
        return new QueryMaskConfig(
                ratio, List.of(0.01, 0.03, 0.1, 0.3), 64, 1000, 0.1, 1e-3, 0.01, 256, 200, 0L, "auto", DEFAULT_FOLDS);
    }

    public QueryMaskConfig withEpochs(int e) {
        return new QueryMaskConfig(
                ratio,
                taus,
                negativesSampled,
                negativePool,
                dropout,
                learningRate,
                weightDecay,
                batchSize,
                e,
                seed,
                device,
                folds);
    }

    public QueryMaskConfig withTaus(List<Double> t) {
        return new QueryMaskConfig(
                ratio,
                t,
                negativesSampled,
                negativePool,
                dropout,
                learningRate,
                weightDecay,
                batchSize,
                epochs,
                seed,
                device,
                folds);
    }

    public QueryMaskConfig withLearningRate(double lr) {
        return new QueryMaskConfig(
                ratio,
                taus,
                negativesSampled,
                negativePool,
                dropout,
                lr,
                weightDecay,
                batchSize,
                epochs,
                seed,
                device,
                folds);
    }

    public QueryMaskConfig withSeed(long s) {
        return new QueryMaskConfig(
                ratio,
                taus,
                negativesSampled,
                negativePool,
                dropout,
                learningRate,
                weightDecay,
                batchSize,
                epochs,
                s,
                device,
                folds);
    }

    public QueryMaskConfig withDevice(String d) {
        return new QueryMaskConfig(
                ratio,
                taus,
                negativesSampled,
                negativePool,
                dropout,
                learningRate,
                weightDecay,
                batchSize,
                epochs,
                seed,
                d,
                folds);
    }

    public QueryMaskConfig withFolds(int k) {
        return new QueryMaskConfig(
                ratio,
                taus,
                negativesSampled,
                negativePool,
                dropout,
                learningRate,
                weightDecay,
                batchSize,
                epochs,
                seed,
                device,
                k);
    }

    public Map<String, Object> asMap() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("ratio", ratio);
        m.put("taus", taus);
        m.put("negativesSampled", negativesSampled);
        m.put("negativePool", negativePool);
        m.put("dropout", dropout);
        m.put("learningRate", learningRate);
        m.put("weightDecay", weightDecay);
        m.put("batchSize", batchSize);
        m.put("epochs", epochs);
        m.put("seed", seed);
        m.put("device", device);
        m.put("folds", folds);
        return m;
    }
}
