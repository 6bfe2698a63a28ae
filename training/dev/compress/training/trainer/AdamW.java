package dev.compress.training.trainer;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * AdamW (Loshchilov and Hutter) with PyTorch's defaults (beta1 0.9, beta2 0.999, eps 1e-8):
 * p <- p - lr * wd * p - lr * m_hat / (sqrt(v_hat) + eps). Runs outside the gradient collector,
 * updates in place, and zeroes each gradient after using it (DJL accumulates gradients otherwise).
 * Temporaries live in a scratch manager closed after every step.
 */
final class AdamW {

    private static final float BETA1 = 0.9f;
    private static final float BETA2 = 0.999f;
    private static final float EPS = 1e-8f;

    private final NDManager manager;
    private final Map<String, NDArray> params;
    private final Map<String, NDArray> firstMoment = new LinkedHashMap<>();
    private final Map<String, NDArray> secondMoment = new LinkedHashMap<>();
    private final float lr;
    private final float weightDecay;
    private int t;

    AdamW(NDManager manager, Map<String, NDArray> trainable, float lr, float weightDecay) {
        this.manager = manager;
        this.params = trainable;
        this.lr = lr;
        this.weightDecay = weightDecay;
        trainable.forEach((name, p) -> {
            firstMoment.put(name, manager.zeros(p.getShape()));
            secondMoment.put(name, manager.zeros(p.getShape()));
        });
    }

    void step() {
        t++;
        float bc1 = (float) (1 - Math.pow(BETA1, t));
        float bc2 = (float) (1 - Math.pow(BETA2, t));
        for (Map.Entry<String, NDArray> e : params.entrySet()) {
            try (NDManager scratch = manager.newSubManager()) {
                NDArray p = e.getValue();
                NDArray m = firstMoment.get(e.getKey());
                NDArray v = secondMoment.get(e.getKey());
                NDArray g = p.getGradient();
                g.attach(scratch);
                p.tempAttach(scratch);
                m.tempAttach(scratch);
                v.tempAttach(scratch);
                m.muli(BETA1).addi(g.mul(1f - BETA1));
                v.muli(BETA2).addi(g.square().mul(1f - BETA2));
                p.muli(1f - lr * weightDecay);
                p.subi(m.div(bc1).div(v.div(bc2).sqrt().add(EPS)).mul(lr));
                g.subi(g);
            }
        }
    }
}
