package dev.compress.plugin.train;

import dev.compress.training.trainer.CorpusPca;
import java.util.concurrent.atomic.AtomicBoolean;
import org.opensearch.common.lease.Releasable;
import org.opensearch.core.common.breaker.CircuitBreaker;
import org.opensearch.core.common.unit.ByteSizeValue;

/**
 * The heap of a training job that grows with the square of its input dimension, its corpus PCA
 * ({@link CorpusPca#heapBytes}), held on the node's request circuit breaker from before the job
 * starts until it ends, so that a job that would exhaust the heap is refused before it allocates
 * rather than ending the node with an {@code OutOfMemoryError}: a 400 when the breaker's limit
 * could never hold it, the breaker's 429 while searches and other jobs hold too much of it. The rest
 * of a job's heap (ids, queries, judgments, one block of rows) grows linearly, and the weights it
 * trains live in libtorch's native memory.
 */
final class TrainingHeap {

    private TrainingHeap() {}

    /** Reserves the heap of a job of {@code method} at {@code inputDim} dimensions; closing gives it back. */
    static Releasable reserve(CircuitBreaker breaker, String method, int inputDim, String modelId, String node) {
        long bytes = CorpusPca.heapBytes(method, inputDim);
        if (bytes == 0) {
            return () -> {};
        }
        // a limit below zero is none: an operator's noop breaker, which also reserves nothing
        if (breaker.getLimit() >= 0 && bytes > breaker.getLimit()) {
            throw new IllegalArgumentException("[corpus.vector_field] has " + inputDim + " dimensions, and method ["
                    + method + "] fits a PCA of the corpus whose covariance takes " + new ByteSizeValue(bytes)
                    + " of heap, more than node [" + node + "]'s request circuit breaker holds ("
                    + new ByteSizeValue(breaker.getLimit())
                    + ", [indices.breaker.request.limit]); train on nodes with a larger heap, or on vectors of"
                    + " fewer dimensions");
        }
        breaker.addEstimateBytesAndMaybeBreak(bytes, "compress training [" + modelId + "]");
        AtomicBoolean held = new AtomicBoolean(true);
        return () -> {
            if (held.compareAndSet(true, false)) {
                breaker.addWithoutBreaking(-bytes);
            }
        };
    }
}
