package dev.compress.training.trainer;

import static dev.compress.training.inference.DjlLayers.constant;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.Shape;
import ai.djl.nn.Activation;

/**
 * DIVE's losses as DJL operations (autograd-friendly). Scalars enter as float32 constants held by
 * the batch's manager ({@link DjlLayers#constant}), never as Java numbers.
 */
public final class DiveLosses {

    private static final float MASKED = 1e4f;

    private DiveLosses() {}

    /**
     * Hinge triplet loss on head 1: mean over triplets of gain * relu(m - (q.p - q.n)), divided by the
     * mean gain (with binary judgments, the plain mean). Rows of q, p, n are L2-normalised [B, k].
     * Returns {loss (scalar), active mask [B] (1 where the hinge is positive)}.
     */
    public static NDArray[] triplet(NDArray q, NDArray p, NDArray n, NDArray gain, float margin) {
        NDArray diff = q.mul(p).sum(new int[] {1}).sub(q.mul(n).sum(new int[] {1}));
        NDArray hinge = Activation.relu(diff.neg().add(constant(diff, margin)));
        NDArray loss = hinge.mul(gain).sum().div(gain.sum());
        NDArray active = hinge.gt(0f);
        return new NDArray[] {loss, active};
    }

    /**
     * Head-wise NT-Xent. {@code heads} is [B, H, k], each head L2-normalised. The H heads of a sample
     * are H views of it: for the anchor (i, h), every (i, h') with h' != h is a positive, and every
     * other head of every sample in the batch is in the denominator; the anchor itself is excluded.
     * This is SimCLR's NT-Xent generalised from 2 to H views (the SupCon form: the mean over all
     * anchor-positive pairs of -log softmax). The paper gives the idea ("heads as implicit views")
     * but not the multi-view formula; this is the standard one.
     */
    public static NDArray headwiseNtXent(NDArray heads, float tau) {
        Shape s = heads.getShape();
        int b = (int) s.get(0);
        int h = (int) s.get(1);
        NDArray z = heads.reshape(b * h, s.get(2));
        NDArray sim = z.matMul(z.transpose()).mul(constant(z, 1f / tau));
        NDManager m = heads.getManager();
        float[][] masks = masks(b, h);
        NDArray self = m.create(masks[0], new Shape(b * h, b * h));
        NDArray pos = m.create(masks[1], new Shape(b * h, b * h));
        NDArray logProb = sim.sub(self).logSoftmax(1);
        return logProb.mul(pos).sum().neg().mul(constant(z, 1f / (b * h * (h - 1))));
    }

    /** {MASKED on the diagonal}, {1 where two rows are different heads of the same sample}. */
    private static float[][] masks(int b, int h) {
        int n = b * h;
        float[] self = new float[n * n];
        float[] pos = new float[n * n];
        for (int i = 0; i < n; i++) {
            self[i * n + i] = MASKED;
            int sample = i / h;
            for (int j = sample * h; j < sample * h + h; j++) {
                if (j != i) {
                    pos[i * n + j] = 1f;
                }
            }
        }
        return new float[][] {self, pos};
    }

    /**
     * Similarity preservation (an option beyond the paper): KL(teacher || student) between the softmax
     * over a document pool of the frozen scores (teacher) and of the adapted scores (student), both at
     * temperature {@code t}, averaged over anchors. {@code selfMask} [A, P] holds a large value where an
     * anchor is itself in the pool (excluded), 0 elsewhere.
     */
    public static NDArray preservation(
            NDArray anchors, NDArray pool, NDArray frozenAnchors, NDArray frozenPool, NDArray selfMask, float t) {
        NDArray teacherLogits = frozenAnchors
                .matMul(frozenPool.transpose())
                .mul(constant(anchors, 1f / t))
                .sub(selfMask);
        NDArray studentLogits =
                anchors.matMul(pool.transpose()).mul(constant(anchors, 1f / t)).sub(selfMask);
        NDArray teacher = teacherLogits.softmax(1);
        NDArray kl = teacher.mul(teacherLogits.logSoftmax(1).sub(studentLogits.logSoftmax(1)));
        return kl.sum().mul(constant(anchors, 1f / anchors.getShape().get(0)));
    }
}
