package dev.compress.plugin.durability;

import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.opensearch.action.bulk.BulkItemResponse;
import org.opensearch.action.bulk.BulkRequestBuilder;
import org.opensearch.action.bulk.BulkResponse;
import org.opensearch.transport.client.Client;

/**
 * A thread that bulk-indexes random vectors through a pipeline until stopped, remembering every
 * document it sent and which of them the cluster acknowledged. Failures are expected while nodes
 * restart; they are counted, not fatal. Ids are never reused, so a document's presence says which
 * write put it there.
 */
final class BackgroundIngest implements AutoCloseable {

    private final Client client;
    private final String index;
    private final String pipeline;
    private final int dims;
    private final int bulkSize;
    private final long pauseMillis;
    private final Random random;
    private final Map<String, float[]> sent = new ConcurrentHashMap<>();
    private final Set<String> acked = ConcurrentHashMap.newKeySet();
    private final AtomicInteger failedItems = new AtomicInteger();
    private final AtomicInteger failedBulks = new AtomicInteger();
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final Thread thread;
    private volatile Throwable unexpected;

    /** {@code pauseMillis} between bulks keeps the shards small enough for the searches to stay exhaustive. */
    BackgroundIngest(
            Client client, String index, String pipeline, int dims, int bulkSize, long pauseMillis, long seed) {
        this.client = client;
        this.index = index;
        this.pipeline = pipeline;
        this.dims = dims;
        this.bulkSize = bulkSize;
        this.pauseMillis = pauseMillis;
        this.random = new Random(seed);
        this.thread = new Thread(this::run, "background-ingest");
        thread.start();
    }

    private void run() {
        try {
            int next = 0;
            while (running.get()) {
                BulkRequestBuilder bulk = client.prepareBulk();
                for (int i = 0; i < bulkSize; i++, next++) {
                    String id = "d" + next;
                    float[] raw = new float[dims];
                    for (int j = 0; j < dims; j++) {
                        raw[j] = (float) random.nextGaussian();
                    }
                    sent.put(id, raw);
                    bulk.add(client.prepareIndex(index)
                            .setId(id)
                            .setPipeline(pipeline)
                            .setSource(Map.of("raw", raw)));
                }
                try {
                    BulkResponse response = bulk.get();
                    for (BulkItemResponse item : response.getItems()) {
                        if (item.isFailed()) {
                            failedItems.incrementAndGet();
                        } else {
                            acked.add(item.getId());
                        }
                    }
                } catch (RuntimeException e) {
                    failedBulks.incrementAndGet();
                }
                Thread.sleep(pauseMillis);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Throwable t) {
            unexpected = t;
        }
    }

    int ackedCount() {
        return acked.size();
    }

    /** Stops sending and waits for the bulk in flight; rethrows anything the thread did not expect. */
    @Override
    public void close() throws InterruptedException {
        running.set(false);
        thread.join();
        if (unexpected != null) {
            throw new AssertionError("background ingest failed", unexpected);
        }
    }

    Set<String> acked() {
        return Set.copyOf(acked);
    }

    Map<String, float[]> sent() {
        return Map.copyOf(sent);
    }

    int failedItems() {
        return failedItems.get();
    }

    int failedBulks() {
        return failedBulks.get();
    }
}
