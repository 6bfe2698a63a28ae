package dev.compress.training.inference;

import static org.junit.Assert.assertEquals;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.Shape;
import dev.compress.training.engine.DjlRuntime;
import java.util.HashMap;
import java.util.Map;
import org.junit.Test;

public class DjlLayersTests {

    @Test
    public void trainingBatchNormUsesBatchStatisticsAndDjlMomentum() {
        try (NDManager m = DjlRuntime.engine().newBaseManager()) {
            Map<String, NDArray> p = new HashMap<>();
            p.put("bn.running_mean", m.zeros(new Shape(1)));
            p.put("bn.running_var", m.ones(new Shape(1)));
            p.put("bn.gamma", m.ones(new Shape(1)));
            p.put("bn.beta", m.zeros(new Shape(1)));
            NDArray y = DjlLayers.batchNorm(m.create(new float[] {8f, 12f}, new Shape(2, 1)), p, "bn", 1e-5f, true);
            // batch mean 10, biased variance 4: outputs -1, +1
            assertEquals(-1f, y.getFloat(0, 0), 1e-5f);
            assertEquals(1f, y.getFloat(1, 0), 1e-5f);
            // running = 0.9 * old + 0.1 * batch (unbiased variance 8 for the running statistic, as PyTorch)
            assertEquals(1f, p.get("bn.running_mean").getFloat(0), 1e-5f);
            assertEquals(0.9f + 0.8f, p.get("bn.running_var").getFloat(0), 1e-5f);
        }
    }

    @Test
    public void finishTakesPrefixAndNormalises() {
        try (NDManager m = DjlRuntime.engine().newBaseManager()) {
            NDArray x = m.create(new float[] {3f, 4f, 100f, 0f, 0f, 7f}, new Shape(2, 3));
            float[] y = DjlLayers.finish(x, 2, true).toFloatArray();
            assertEquals(0.6f, y[0], 1e-6f);
            assertEquals(0.8f, y[1], 1e-6f);
            assertEquals(0f, y[2], 1e-6f); // a zero row stays zero
            assertEquals(0f, y[3], 1e-6f);
        }
    }
}
