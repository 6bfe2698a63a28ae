package dev.compress.training.trainer;

import static org.junit.Assert.assertEquals;

import ai.djl.engine.Engine;
import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.Shape;
import ai.djl.training.GradientCollector;
import dev.compress.training.engine.DjlRuntime;
import java.util.function.Function;

/** Autograd gradient of a scalar loss against central finite differences. */
final class GradientCheck {

    private GradientCheck() {}

    static void check(float[] x0, Shape shape, Function<NDArray, NDArray> loss) {
        Engine engine = DjlRuntime.engine();
        try (NDManager m = engine.newBaseManager()) {
            NDArray x = m.create(x0.clone(), shape);
            x.setRequiresGradient(true);
            try (GradientCollector c = engine.newGradientCollector()) {
                c.backward(loss.apply(x));
            }
            float[] grad = x.getGradient().toFloatArray();
            float eps = 1e-2f;
            for (int i = 0; i < x0.length; i++) {
                float[] plus = x0.clone();
                float[] minus = x0.clone();
                plus[i] += eps;
                minus[i] -= eps;
                double numeric = (loss.apply(m.create(plus, shape)).getFloat()
                                - loss.apply(m.create(minus, shape)).getFloat())
                        / (2 * eps);
                assertEquals("d loss / d x[" + i + "]", numeric, grad[i], 2e-3 + 0.02 * Math.abs(numeric));
            }
        }
    }
}
