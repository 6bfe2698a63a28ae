package dev.compress.plugin.train;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import dev.compress.training.trainer.CorpusPca;
import java.util.List;
import org.junit.Test;
import org.opensearch.common.lease.Releasable;
import org.opensearch.common.settings.ClusterSettings;
import org.opensearch.common.settings.Settings;
import org.opensearch.core.common.breaker.CircuitBreaker;
import org.opensearch.core.common.breaker.CircuitBreakingException;
import org.opensearch.core.common.breaker.NoopCircuitBreaker;
import org.opensearch.indices.breaker.HierarchyCircuitBreakerService;

/** A job's PCA heap on OpenSearch's own request breaker: refused, reserved and given back, or not held at all. */
public class TrainingHeapTests {

    private static CircuitBreaker requestBreaker(String limit) {
        return new HierarchyCircuitBreakerService(
                        Settings.builder()
                                .put("indices.breaker.request.limit", limit)
                                .build(),
                        List.of(),
                        new ClusterSettings(Settings.EMPTY, ClusterSettings.BUILT_IN_CLUSTER_SETTINGS))
                .getBreaker(CircuitBreaker.REQUEST);
    }

    @Test
    public void heldUntilClosedOnceAndRefusedBeyondTheLimit() {
        long pca = CorpusPca.heapBytes("pca", 32);
        CircuitBreaker breaker = requestBreaker("1mb");
        Releasable held = TrainingHeap.reserve(breaker, "pca", 32, "m", "n");
        assertEquals(pca, breaker.getUsed());
        // a second job that does not fit beside the first is the breaker's own 429
        CircuitBreaker small = requestBreaker(pca * 3 / 2 + "b");
        try (Releasable first = TrainingHeap.reserve(small, "pca", 32, "a", "n")) {
            assertThrows(CircuitBreakingException.class, () -> TrainingHeap.reserve(small, "pca", 32, "b", "n"));
        }
        held.close();
        held.close();
        assertEquals(0, breaker.getUsed());

        IllegalArgumentException never = assertThrows(
                IllegalArgumentException.class,
                () -> TrainingHeap.reserve(requestBreaker(pca / 2 + "b"), "dive", 32, "m", "node-0"));
        assertTrue(
                never.getMessage(), never.getMessage().contains("more than node [node-0]'s request circuit breaker"));
    }

    @Test
    public void nothingIsHeldWithoutAPcaOrWithoutALimit() {
        CircuitBreaker breaker = requestBreaker("1b");
        TrainingHeap.reserve(breaker, "truncation", 16000, "m", "n").close();
        TrainingHeap.reserve(breaker, "query_mask", 16000, "m", "n").close();
        assertEquals(0, breaker.getUsed());
        // an operator's noop breaker (limit -1) refuses nothing
        TrainingHeap.reserve(new NoopCircuitBreaker(CircuitBreaker.REQUEST), "pca", 16000, "m", "n")
                .close();
    }
}
