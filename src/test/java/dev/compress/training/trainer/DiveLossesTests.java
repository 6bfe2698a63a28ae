package dev.compress.training.trainer;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;

import ai.djl.engine.Engine;
import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.Shape;
import ai.djl.training.GradientCollector;
import dev.compress.training.engine.DjlRuntime;
import java.util.Random;
import java.util.function.Function;
import org.junit.Test;

/** Each loss against values computed by hand (or by a plain double-precision loop) and its gradient against finite differences. */
public class DiveLossesTests {

    @Test
    public void tripletHingeByHand() {
        try (NDManager m = DjlRuntime.engine().newBaseManager()) {
            // q.p - q.n = 1 - 0 = 1 (inactive at margin 0.5), 0 - 1 = -1 (active: 0.5 + 1 = 1.5)
            NDArray q = m.create(new float[] {1, 0, 0, 1}, new Shape(2, 2));
            NDArray p = m.create(new float[] {1, 0, 1, 0}, new Shape(2, 2));
            NDArray n = m.create(new float[] {0, 1, 0, 1}, new Shape(2, 2));
            NDArray[] out = DiveLosses.triplet(q, p, n, m.create(new float[] {1, 1}), 0.5f);
            assertEquals(0.75, out[0].getFloat(), 1e-6);
            assertArrayEquals(new boolean[] {false, true}, out[1].toBooleanArray());
            // gains 1 and 3: (1 * 0 + 3 * 1.5) / 4
            assertEquals(4.5 / 4, DiveLosses.triplet(q, p, n, m.create(new float[] {1, 3}), 0.5f)[0].getFloat(), 1e-6);
        }
    }

    @Test
    public void headwiseNtXentByHandOnTwoSamplesTwoHeads() {
        try (NDManager m = DjlRuntime.engine().newBaseManager()) {
            // sample 0: heads e1, e1; sample 1: heads e2, -e2. Rows: a=e1, b=e1, c=e2, d=-e2, tau = 1.
            NDArray heads = m.create(new float[] {1, 0, 1, 0, 0, 1, 0, -1}, new Shape(2, 2, 2));
            // anchor a: sims to b, c, d = 1, 0, 0 -> -log(e / (e + 2)); same for b.
            // anchor c: sims to a, b, d = 0, 0, -1 -> positive d: -log(e^-1 / (2 + e^-1)); same for d.
            double ab = -Math.log(Math.E / (Math.E + 2));
            double cd = -Math.log(Math.exp(-1) / (2 + Math.exp(-1)));
            assertEquals(
                    (2 * ab + 2 * cd) / 4, DiveLosses.headwiseNtXent(heads, 1f).getFloat(), 1e-5);
        }
    }

    @Test
    public void headwiseNtXentMatchesPlainLoopOnRandomHeads() {
        int b = 3, h = 4, k = 5;
        float tau = 0.1f;
        float[] z = normalisedRows(new Random(1), b * h, k);
        double expected = 0;
        for (int i = 0; i < b * h; i++) {
            double denom = 0;
            for (int j = 0; j < b * h; j++) {
                if (j != i) {
                    denom += Math.exp(dot(z, i, j, k) / tau);
                }
            }
            for (int j = (i / h) * h; j < (i / h) * h + h; j++) {
                if (j != i) {
                    expected += -(dot(z, i, j, k) / tau - Math.log(denom));
                }
            }
        }
        expected /= b * h * (h - 1);
        try (NDManager m = DjlRuntime.engine().newBaseManager()) {
            assertEquals(
                    expected,
                    DiveLosses.headwiseNtXent(m.create(z, new Shape(b, h, k)), tau)
                            .getFloat(),
                    1e-4);
        }
    }

    @Test
    public void gradientsMatchFiniteDifferences() {
        Random rnd = new Random(7);
        float[] z = normalisedRows(rnd, 2 * 3, 4);
        checkGradient(z, new Shape(2, 3, 4), x -> DiveLosses.headwiseNtXent(x, 0.5f));
        float[] a = normalisedRows(rnd, 3, 4);
        try (NDManager m = DjlRuntime.engine().newBaseManager()) {
            NDArray pool = m.create(normalisedRows(rnd, 5, 4), new Shape(5, 4));
            NDArray frozenA = m.create(normalisedRows(rnd, 3, 6), new Shape(3, 6));
            NDArray frozenP = m.create(normalisedRows(rnd, 5, 6), new Shape(5, 6));
            NDArray mask = m.zeros(new Shape(3, 5));
            checkGradient(a, new Shape(3, 4), x -> DiveLosses.preservation(x, pool, frozenA, frozenP, mask, 0.5f));
            NDArray p = m.create(normalisedRows(rnd, 3, 4), new Shape(3, 4));
            NDArray n = m.create(normalisedRows(rnd, 3, 4), new Shape(3, 4));
            NDArray gain = m.create(new float[] {1, 1, 1});
            checkGradient(a, new Shape(3, 4), x -> DiveLosses.triplet(x, p, n, gain, 1.5f)[0]);
        }
    }

    @Test
    public void preservationIsZeroWhenStudentEqualsTeacher() {
        try (NDManager m = DjlRuntime.engine().newBaseManager()) {
            Random rnd = new Random(3);
            NDArray a = m.create(normalisedRows(rnd, 4, 8), new Shape(4, 8));
            NDArray p = m.create(normalisedRows(rnd, 6, 8), new Shape(6, 8));
            assertEquals(
                    0,
                    DiveLosses.preservation(a, p, a, p, m.zeros(new Shape(4, 6)), 0.1f)
                            .getFloat(),
                    1e-5);
        }
    }

    private static void checkGradient(float[] x0, Shape shape, Function<NDArray, NDArray> loss) {
        Engine engine = DjlRuntime.engine();
        try (NDManager m = engine.newBaseManager()) {
            NDArray x = m.create(x0.clone(), shape);
            x.setRequiresGradient(true);
            float[] grad;
            try (GradientCollector c = engine.newGradientCollector()) {
                c.backward(loss.apply(x));
            }
            grad = x.getGradient().toFloatArray();
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

    private static float[] normalisedRows(Random rnd, int rows, int dim) {
        float[] z = new float[rows * dim];
        for (int r = 0; r < rows; r++) {
            double norm = 0;
            for (int j = 0; j < dim; j++) {
                z[r * dim + j] = (float) rnd.nextGaussian();
                norm += z[r * dim + j] * z[r * dim + j];
            }
            for (int j = 0; j < dim; j++) {
                z[r * dim + j] /= (float) Math.sqrt(norm);
            }
        }
        return z;
    }

    private static double dot(float[] z, int i, int j, int k) {
        double s = 0;
        for (int t = 0; t < k; t++) {
            s += z[i * k + t] * z[j * k + t];
        }
        return s;
    }
}
