package dev.compress.plugin.stats;

import dev.compress.plugin.query.mask.MaskType;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

/**
 * The events this node has counted since it started, for {@code GET _plugins/compress/stats}. One
 * instance per node, owned by the plugin and handed to what counts: the model cache, the training
 * jobs, the {@code compressed_knn} query and the {@code compress} processor. Adders, because queries
 * and ingest count from many threads at once and only the stats call reads the sums.
 */
public final class CompressCounters {

    final LongAdder modelCacheHits = new LongAdder();
    final LongAdder modelCacheMisses = new LongAdder();
    final LongAdder modelCacheEvictions = new LongAdder();
    final LongAdder trainingCompleted = new LongAdder();
    final LongAdder trainingFailed = new LongAdder();
    final LongAdder queries = new LongAdder();
    final LongAdder plainQueries = new LongAdder();
    final LongAdder rescoredQueries = new LongAdder();
    final LongAdder filteredQueries = new LongAdder();
    final LongAdder maskedQueries = new LongAdder();
    final Map<MaskType, LongAdder> masks = new EnumMap<>(MaskType.class);
    final LongAdder ingestDocuments = new LongAdder();
    final LongAdder ingestErrors = new LongAdder();

    public CompressCounters() {
        for (MaskType type : MaskType.values()) {
            masks.put(type, new LongAdder());
        }
    }

    public void modelCacheHit() {
        modelCacheHits.increment();
    }

    /** A request the cache could not answer from memory: it started a load or joined one in flight. */
    public void modelCacheMiss() {
        modelCacheMisses.increment();
    }

    /** A model dropped to make room (least recently used first), not one evicted on request. */
    public void modelCacheEviction() {
        modelCacheEvictions.increment();
    }

    public void trainingCompleted() {
        trainingCompleted.increment();
    }

    public void trainingFailed() {
        trainingFailed.increment();
    }

    /**
     * One {@code compressed_knn} query run on one of this node's shards. Plain means none of the
     * others: no rescoring, no filter, no mask; the others may combine.
     */
    public void shardQuery(boolean rescored, boolean filtered, boolean masked) {
        queries.increment();
        if (rescored) {
            rescoredQueries.increment();
        }
        if (filtered) {
            filteredQueries.increment();
        }
        if (masked) {
            maskedQueries.increment();
        }
        if (rescored == false && filtered == false && masked == false) {
            plainQueries.increment();
        }
    }

    /**
     * A {@code compressed_knn} query with a mask of {@code type}, parsed on this node: once per
     * search, on its coordinating node, since every mask reaches the shards as an explicit one.
     */
    public void maskRequested(MaskType type) {
        masks.get(type).increment();
    }

    public void ingestDocument() {
        ingestDocuments.increment();
    }

    public void ingestError() {
        ingestErrors.increment();
    }
}
