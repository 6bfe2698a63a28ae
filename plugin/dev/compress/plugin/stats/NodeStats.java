package dev.compress.plugin.stats;

import dev.compress.plugin.inference.ModelCache;
import dev.compress.plugin.query.mask.MaskType;
import dev.compress.plugin.train.TrainingJobs;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.ToLongFunction;

/**
 * The per-node statistics of {@code GET _plugins/compress/stats}, by name, in the order they are
 * shown: counters since the node started ({@link CompressCounters}) and what the model cache and the
 * training jobs hold now. Names are flat, as the k-NN plugin's, so that {@code {stat}} can pick any.
 */
public final class NodeStats {

    /** What a node's statistics are read from. */
    public record Sources(CompressCounters counters, ModelCache modelCache, TrainingJobs trainingJobs) {}

    private static final Map<String, ToLongFunction<Sources>> STATS = stats();

    private NodeStats() {}

    private static Map<String, ToLongFunction<Sources>> stats() {
        Map<String, ToLongFunction<Sources>> stats = new LinkedHashMap<>();
        stats.put("model_cache_entries", s -> s.modelCache().cachedCount());
        stats.put("model_cache_bytes", s -> s.modelCache().cachedBytes());
        stats.put("model_cache_max_bytes", s -> s.modelCache().maxBytes());
        stats.put("model_cache_hits", s -> s.counters().modelCacheHits.sum());
        stats.put("model_cache_misses", s -> s.counters().modelCacheMisses.sum());
        stats.put("model_cache_evictions", s -> s.counters().modelCacheEvictions.sum());
        stats.put("training_jobs_running", s -> s.trainingJobs().runningCount());
        stats.put("training_jobs_queued", s -> s.trainingJobs().queuedCount());
        stats.put("training_jobs_completed", s -> s.counters().trainingCompleted.sum());
        stats.put("training_jobs_failed", s -> s.counters().trainingFailed.sum());
        stats.put("training_sweep_unreadable_models", s -> s.trainingJobs().unreadableModelRecords());
        stats.put("query_requests", s -> s.counters().queries.sum());
        stats.put("query_plain", s -> s.counters().plainQueries.sum());
        stats.put("query_rescored", s -> s.counters().rescoredQueries.sum());
        stats.put("query_filtered", s -> s.counters().filteredQueries.sum());
        stats.put("query_masked", s -> s.counters().maskedQueries.sum());
        for (MaskType type : MaskType.values()) {
            stats.put(
                    "query_mask_" + type.jsonName(),
                    s -> s.counters().masks.get(type).sum());
        }
        stats.put("ingest_documents", s -> s.counters().ingestDocuments.sum());
        stats.put("ingest_errors", s -> s.counters().ingestErrors.sum());
        return Collections.unmodifiableMap(stats);
    }

    public static Set<String> names() {
        return STATS.keySet();
    }

    /** The statistics named in {@code wanted}, every one when it is empty, in the order of {@link #names()}. */
    public static Map<String, Long> read(Sources sources, Set<String> wanted) {
        Map<String, Long> values = new LinkedHashMap<>();
        STATS.forEach((name, stat) -> {
            if (wanted.isEmpty() || wanted.contains(name)) {
                values.put(name, stat.applyAsLong(sources));
            }
        });
        return values;
    }
}
