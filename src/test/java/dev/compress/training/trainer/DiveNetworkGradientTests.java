package dev.compress.training.trainer;

import static org.junit.Assert.assertEquals;

import ai.djl.Device;
import ai.djl.engine.Engine;
import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.Shape;
import ai.djl.training.GradientCollector;
import dev.compress.training.engine.DjlRuntime;
import java.util.Random;
import java.util.function.Function;
import org.junit.Test;

/** Autograd through the whole DIVE network (batch norm in training mode included) against finite differences. */
public class DiveNetworkGradientTests {

    @Test
    public void contrastAndTripletGradientsThroughTheNetwork() {
        check(heads -> DiveLosses.headwiseNtXent(heads, 0.5f));
        check(heads -> {
            int n = (int) heads.getShape().get(0) / 3;
            NDArray q = heads.get("0:" + n).get(":, 0, :");
            NDArray p = heads.get(n + ":" + 2 * n).get(":, 0, :");
            NDArray neg = heads.get(2 * n + ":" + 3 * n).get(":, 0, :");
            return DiveLosses.triplet(q, p, neg, q.getManager().ones(new Shape(n)), 1.5f)[0];
        });
    }

    private static void check(Function<NDArray, NDArray> loss) {
        Engine engine = DjlRuntime.engine();
        Random rnd = new Random(5);
        int rows = 6, d = 8;
        float[] x = new float[rows * d];
        for (int i = 0; i < x.length; i++) {
            x[i] = (float) rnd.nextGaussian();
        }
        try (NDManager m = engine.newBaseManager();
                DiveNetwork net = new DiveNetwork(m, Device.cpu(), d, 6, 5, 2, 3, 11, gaussian(rnd, 2 * 3 * d))) {
            // the last layer starts at zero (the network starts as its skip); give it values so gradients reach every
            // layer
            net.trainable().get("fc3.weight").set(gaussian(rnd, 2 * 3 * 5));
            NDArray input = m.create(x, new Shape(rows, d));
            try (GradientCollector c = engine.newGradientCollector()) {
                c.backward(loss.apply(net.forwardTrain(input)));
            }
            for (String name : new String[] {"fc3.weight", "fc2.weight", "fc1.weight", "bn1.gamma"}) {
                NDArray param = net.trainable().get(name);
                float[] grad = param.getGradient().toFloatArray();
                float[] values = param.toFloatArray();
                for (int i = 0; i < Math.min(6, values.length); i++) {
                    double plus = lossAt(net, param, values, i, 2e-3f, loss, input);
                    double minus = lossAt(net, param, values, i, -2e-3f, loss, input);
                    double numeric = (plus - minus) / 4e-3;
                    assertEquals(name + "[" + i + "]", numeric, grad[i], 2e-3 + 0.05 * Math.abs(numeric));
                }
                param.set(values);
            }
        }
    }

    private static float[] gaussian(Random rnd, int n) {
        float[] v = new float[n];
        for (int i = 0; i < n; i++) {
            v[i] = (float) (rnd.nextGaussian() * 0.3);
        }
        return v;
    }

    private static double lossAt(
            DiveNetwork net,
            NDArray param,
            float[] values,
            int i,
            float delta,
            Function<NDArray, NDArray> loss,
            NDArray input) {
        float[] changed = values.clone();
        changed[i] += delta;
        param.set(changed);
        return loss.apply(net.forwardTrain(input)).getFloat();
    }
}
