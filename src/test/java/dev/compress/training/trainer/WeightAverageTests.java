package dev.compress.training.trainer;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;

import ai.djl.Device;
import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.Shape;
import dev.compress.training.engine.DjlRuntime;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.Test;

/** The moving average of a network's weights: its arithmetic, its start, and the computation it serves. */
public class WeightAverageTests {

    private static final int D = 4;

    @Test
    public void theAverageStartsAtTheStartWeightsAndFollowsEachUpdate() {
        try (NDManager m = DjlRuntime.engine().newBaseManager();
                LayerNetwork net = network(m)) {
            WeightAverage average = new WeightAverage(net, 4);
            Map<String, float[]> start = net.snapshot();
            assertSnapshot(start, average.snapshot());
            NDArray w = net.trainable().get("adapter.fc2.weight");
            float[] expected = start.get("adapter.fc2.weight").clone();
            Random rnd = new Random(3);
            for (int step = 0; step < 5; step++) {
                float[] next = gaussian(rnd, D * D);
                w.set(next);
                average.update();
                for (int i = 0; i < expected.length; i++) {
                    expected[i] = 0.75f * expected[i] + 0.25f * next[i];
                }
            }
            assertArrayEquals(expected, average.snapshot().get("adapter.fc2.weight"), 1e-6f);
            // frozen tensors are the network's own
            assertArrayEquals(
                    net.snapshot().get(LayerNetwork.START + ".weight"),
                    average.snapshot().get(LayerNetwork.START + ".weight"),
                    0f);
        }
    }

    @Test
    public void forwardComputesTheNetworkAtTheAveragedWeights() {
        try (NDManager m = DjlRuntime.engine().newBaseManager();
                LayerNetwork net = network(m)) {
            WeightAverage average = new WeightAverage(net, 2);
            Random rnd = new Random(7);
            for (int step = 0; step < 3; step++) {
                for (NDArray w : net.trainable().values()) {
                    w.set(gaussian(rnd, (int) w.size()));
                }
                average.update();
            }
            NDArray x = m.create(gaussian(rnd, 3 * D), new Shape(3, D));
            float[] viaAverage = average.forward(x).toFloatArray();
            average.snapshot()
                    .forEach((name, values) -> net.parameters().get(name).set(values));
            assertArrayEquals(net.forward(x).toFloatArray(), viaAverage, 1e-5f);
        }
    }

    @Test
    public void theHorizonIsHalfAnEpochOfBatches() {
        assertEquals(4, WeightAverage.halfEpoch(1000, 128));
        assertEquals(1, WeightAverage.halfEpoch(100, 128));
    }

    private static LayerNetwork network(NDManager m) {
        Random rnd = new Random(1);
        return new LayerNetwork(
                m,
                Device.cpu(),
                LayerNetwork.residualAdapter(D, D),
                5,
                LayerNetwork.residualZeroInit(),
                Map.of(
                        LayerNetwork.START + ".weight",
                        gaussian(rnd, D * D),
                        LayerNetwork.START + ".bias",
                        new float[D]),
                Set.of(LayerNetwork.START + ".weight", LayerNetwork.START + ".bias"));
    }

    private static void assertSnapshot(Map<String, float[]> expected, Map<String, float[]> actual) {
        assertEquals(expected.keySet(), actual.keySet());
        expected.forEach((k, v) -> assertArrayEquals(k, v, actual.get(k), 0f));
    }

    private static float[] gaussian(Random rnd, int n) {
        float[] v = new float[n];
        for (int i = 0; i < n; i++) {
            v[i] = (float) rnd.nextGaussian();
        }
        return v;
    }
}
