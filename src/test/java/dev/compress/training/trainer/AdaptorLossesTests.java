package dev.compress.training.trainer;

import static org.junit.Assert.assertEquals;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.Shape;
import dev.compress.training.engine.DjlRuntime;
import java.util.Random;
import org.junit.Test;

/** The adaptor-family losses against hand computations and finite differences. */
public class AdaptorLossesTests {

    private static double softplus(double x) {
        return Math.log1p(Math.exp(x));
    }

    @Test
    public void pairwiseRankByHand() {
        try (NDManager m = DjlRuntime.engine().newBaseManager()) {
            // query 0: scores (2, 1, 0), relevance (1, 0, 0): pairs (0,1), (0,2) weight 1
            // query 1: scores (0, 1, 3), relevance (3, 1, 0): pairs (0,1) w2, (0,2) w3, (1,2) w1
            NDArray s = m.create(new float[] {2, 1, 0, 0, 1, 3}, new Shape(2, 3));
            NDArray y = m.create(new float[] {1, 0, 0, 3, 1, 0}, new Shape(2, 3));
            double expected =
                    softplus(1 - 2) + softplus(0 - 2) + 2 * softplus(1 - 0) + 3 * softplus(3 - 0) + softplus(3 - 1);
            expected /= 1 + 1 + 2 + 3 + 1;
            assertEquals(expected, AdaptorLosses.pairwiseRank(s, y).getFloat(), 1e-5);
        }
    }

    @Test
    public void recoveryPreservationAndKlByHand() {
        try (NDManager m = DjlRuntime.engine().newBaseManager()) {
            NDArray a = m.create(new float[] {1, 2, 3, 4}, new Shape(2, 2));
            NDArray b = m.create(new float[] {1, 0, 0, 4}, new Shape(2, 2));
            assertEquals((2 + 3) / 2.0, AdaptorLosses.l1Recovery(a, b).getFloat(), 1e-6);
            NDArray mask = m.create(new float[] {1, 0, 1, 1}, new Shape(2, 2));
            assertEquals(
                    (0 + 3 + 0) / 3.0,
                    AdaptorLosses.similarityPreservation(a, b, mask).getFloat(),
                    1e-6);
            // KL((0.5, 0.5) || softmax(0, ln 3) = (0.25, 0.75)) = 0.5 ln 2 + 0.5 ln(2/3)
            NDArray t = m.create(new float[] {0.5f, 0.5f}, new Shape(1, 2));
            NDArray logits = m.create(new float[] {0f, (float) Math.log(3)}, new Shape(1, 2));
            assertEquals(
                    0.5 * Math.log(2) + 0.5 * Math.log(2.0 / 3),
                    AdaptorLosses.klToSoftmax(t, logits).getFloat(),
                    1e-6);
            assertEquals(
                    0, AdaptorLosses.klToSoftmax(t, m.zeros(new Shape(1, 2))).getFloat(), 1e-6);
        }
    }

    @Test
    public void infoNceByHandWithFalseNegativeRemoved() {
        try (NDManager m = DjlRuntime.engine().newBaseManager()) {
            // 2 queries, 3 docs (pos0, pos1, neg); doc 1 is also relevant to query 0 -> left out of its denominator
            NDArray q = m.create(new float[] {1, 0, 0, 1}, new Shape(2, 2));
            NDArray docs = m.create(new float[] {1, 0, 0.6f, 0.8f, -1, 0}, new Shape(3, 2));
            NDArray rel = m.create(new float[] {1, 1, 0, 0, 1, 0}, new Shape(2, 3));
            float tau = 0.5f;
            double l0 = -(1 / tau - Math.log(Math.exp(1 / tau) + Math.exp(-1 / tau)));
            double l1 = -(0.8 / tau - Math.log(Math.exp(0) + Math.exp(0.8 / tau) + Math.exp(0)));
            NDArray mask = AdaptorLosses.falseNegativeMask(rel);
            assertEquals(
                    (l0 + l1) / 2, AdaptorLosses.infoNce(q, docs, mask, tau).getFloat(), 1e-4);
        }
    }

    @Test
    public void gradientsMatchFiniteDifferences() {
        Random rnd = new Random(11);
        float[] s = new float[2 * 4];
        for (int i = 0; i < s.length; i++) {
            s[i] = (float) rnd.nextGaussian();
        }
        try (NDManager m = DjlRuntime.engine().newBaseManager()) {
            NDArray y = m.create(new float[] {1, 0, 3, 0, 0, 1, 0, 0}, new Shape(2, 4));
            GradientCheck.check(s, new Shape(2, 4), x -> AdaptorLosses.pairwiseRank(x, y));
            NDArray target =
                    m.create(new float[] {0.1f, 0.2f, 0.3f, 0.4f, 0.25f, 0.25f, 0.25f, 0.25f}, new Shape(2, 4));
            GradientCheck.check(s, new Shape(2, 4), x -> AdaptorLosses.klToSoftmax(target, x));
            NDArray docs = m.create(new float[] {1, 0, 0, 1, 0.6f, 0.8f}, new Shape(3, 2));
            NDArray mask = AdaptorLosses.falseNegativeMask(m.create(new float[] {1, 0, 1, 0, 1, 0}, new Shape(2, 3)));
            GradientCheck.check(
                    new float[] {0.3f, 0.9f, -0.5f, 0.2f},
                    new Shape(2, 2),
                    x -> AdaptorLosses.infoNce(TrainerSupport.normalisedPrefix(x, 2), docs, mask, 0.1f));
            NDArray teacher = m.create(new float[] {0.9f, 0.1f, -0.2f, 0.5f}, new Shape(2, 2));
            NDArray ones = m.ones(new Shape(2, 2));
            GradientCheck.check(
                    new float[] {0.31f, 0.77f, -0.45f, 0.12f},
                    new Shape(2, 2),
                    x -> AdaptorLosses.similarityPreservation(
                            AdaptorLosses.cosine(
                                    TrainerSupport.normalisedPrefix(x, 2), TrainerSupport.normalisedPrefix(x, 2)),
                            teacher,
                            ones));
        }
    }
}
