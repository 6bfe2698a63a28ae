package dev.compress.training.engine;

import ai.djl.engine.Engine;
import ai.djl.ndarray.NDArray;
import ai.djl.training.GradientCollector;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Gradient collectors for training jobs that run side by side in one JVM. DJL's PyTorch engine
 * allows one collector open at a time in the whole process and refuses a second with an {@link
 * IllegalStateException}, so two jobs on one node (with {@code compress.training.max_jobs_per_node}
 * above 1) would fail each other. Each job's forward and backward pass holds the process's one
 * collector in turn; data preparation and optimiser updates run outside it, in parallel.
 */
public final class GradientSteps {

    private static final ReentrantLock COLLECTING = new ReentrantLock();

    private GradientSteps() {}

    /** Waits for the process's collector, then opens it; closing the result closes it and lets the next job in. */
    public static GradientCollector open(Engine engine) {
        COLLECTING.lock();
        try {
            return new Held(engine.newGradientCollector());
        } catch (RuntimeException | Error e) {
            COLLECTING.unlock();
            throw e;
        }
    }

    private static final class Held implements GradientCollector {

        private final GradientCollector collector;
        private boolean closed;

        private Held(GradientCollector collector) {
            this.collector = collector;
        }

        @Override
        public void backward(NDArray target) {
            collector.backward(target);
        }

        @Override
        public void zeroGradients() {
            collector.zeroGradients();
        }

        @Override
        public void close() {
            if (closed) {
                return;
            }
            closed = true;
            try {
                collector.close();
            } finally {
                COLLECTING.unlock();
            }
        }
    }
}
