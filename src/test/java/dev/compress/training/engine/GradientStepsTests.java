package dev.compress.training.engine;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;

import ai.djl.engine.Engine;
import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.djl.training.GradientCollector;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import org.junit.Test;

/**
 * Two jobs' gradient steps side by side in one JVM, as two training jobs on one node run: each step
 * gets the right gradient, and neither fails because the other is collecting (DJL refuses a second
 * open collector in the process).
 */
public class GradientStepsTests {

    @Test
    public void concurrentStepsEachGetTheirOwnGradients() throws Exception {
        Engine engine = DjlRuntime.engine();
        int threads = 2;
        int steps = 300;
        CyclicBarrier together = new CyclicBarrier(threads);
        List<Throwable> failures = new ArrayList<>();
        List<Thread> running = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            float scale = t + 1;
            Thread thread = new Thread(() -> {
                try (NDManager m = engine.newBaseManager()) {
                    together.await(30, TimeUnit.SECONDS);
                    for (int s = 0; s < steps; s++) {
                        try (NDManager step = m.newSubManager()) {
                            NDArray x = step.create(new float[] {scale, -scale, s});
                            x.setRequiresGradient(true);
                            try (GradientCollector c = GradientSteps.open(engine)) {
                                c.backward(x.mul(x).sum());
                            }
                            // d/dx sum(x^2) = 2x
                            assertArrayEquals(
                                    new float[] {2 * scale, -2 * scale, 2f * s},
                                    x.getGradient().toFloatArray(),
                                    0f);
                        }
                    }
                } catch (Throwable e) {
                    synchronized (failures) {
                        failures.add(e);
                    }
                }
            });
            running.add(thread);
            thread.start();
        }
        for (Thread thread : running) {
            thread.join(TimeUnit.MINUTES.toMillis(2));
        }
        assertEquals(failures.toString(), List.of(), failures);
    }
}
