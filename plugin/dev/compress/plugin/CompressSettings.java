package dev.compress.plugin;

import dev.compress.plugin.inference.ModelCache;
import java.util.List;
import org.opensearch.common.settings.Setting;
import org.opensearch.common.settings.Setting.Property;
import org.opensearch.common.unit.TimeValue;
import org.opensearch.core.common.unit.ByteSizeUnit;
import org.opensearch.core.common.unit.ByteSizeValue;

/** Settings of the plugin: node settings under {@code compress.}, and the index setting {@code index.compress}. */
public final class CompressSettings {

    private CompressSettings() {}

    /**
     * An index holds {@code compressed_vector} fields, and the plugin supplies its codec service, only
     * when created with {@code index.compress: true}. Other plugins (k-NN's {@code index.knn},
     * neural-search's {@code index.sparse}) claim their indexes the same way, and OpenSearch refuses an
     * index that two plugins claim: so the plugin never claims one that did not opt in.
     */
    public static final Setting<Boolean> INDEX_COMPRESS =
            Setting.boolSetting("index.compress", false, Property.IndexScope, Property.Final);

    /**
     * Vectors of {@code compressed_vector} fields are stored once, by the vector format, and left out
     * of the stored {@code _source}, which reads them back from there (as k-NN's {@code
     * index.knn.derived_source.enabled}). Float fields and binary fields with {@code rescore_vectors}
     * outside nested objects; others keep their vectors in {@code _source}.
     */
    public static final Setting<Boolean> INDEX_DERIVED_SOURCE =
            Setting.boolSetting("index.compress.derived_source", true, Property.IndexScope, Property.Final);

    /** Where DJL extracts libtorch (about 430 MB); empty means {@code <first data path>/compress-djl}. */
    public static final Setting<String> DJL_CACHE_DIR =
            Setting.simpleString("compress.djl.cache_dir", "", Property.NodeScope);

    /** libtorch intra-op threads; defaults to the node's allocated processors. */
    public static final Setting<Integer> DJL_NUM_THREADS = new Setting<>(
            "compress.djl.num_threads",
            s -> Integer.toString(
                    Math.max(1, org.opensearch.common.util.concurrent.OpenSearchExecutors.allocatedProcessors(s))),
            s -> Setting.parseInt(s, 1, "compress.djl.num_threads"),
            Property.NodeScope);

    /** libtorch inter-op threads; one is enough for the small graphs we run. */
    public static final Setting<Integer> DJL_NUM_INTEROP_THREADS =
            Setting.intSetting("compress.djl.num_interop_threads", 1, 1, Property.NodeScope);

    /** Training jobs a node runs at once; also the size of its training thread pool. */
    public static final Setting<Integer> TRAINING_MAX_JOBS_PER_NODE =
            Setting.intSetting("compress.training.max_jobs_per_node", 1, 1, Property.NodeScope);

    /**
     * Largest corpus a training job may spill to its temporary file (documents x dimensions x 4
     * bytes, {@code dev.compress.plugin.train.CorpusFile}): a larger one is refused with a 400. The
     * vectors then live on disk and in the page cache, but each document's id stays on the heap with
     * its lookup table. The default, 16gb, is about 10 million 384-d vectors (4 million at 1,024-d),
     * whose ids take on the order of a gigabyte of heap: as much as a default should let one request
     * take from a node; whoever has the heap and the disk raises it.
     */
    public static final Setting<ByteSizeValue> TRAINING_MAX_CORPUS_SIZE = new Setting<>(
            "compress.training.max_corpus_size",
            new ByteSizeValue(16, ByteSizeUnit.GB).getStringRep(),
            value -> nonNegative(
                    "compress.training.max_corpus_size",
                    value,
                    ByteSizeValue.parseBytesSizeValue(value, "compress.training.max_corpus_size")),
            Property.NodeScope,
            Property.Dynamic);

    /**
     * How often every node looks for models left {@code training} with no job behind them (their
     * node left or restarted, or the job never started) and fails them.
     */
    public static final Setting<TimeValue> TRAINING_SWEEP_INTERVAL = Setting.timeSetting(
            "compress.training.sweep_interval",
            TimeValue.timeValueMinutes(1),
            TimeValue.timeValueSeconds(1),
            Property.NodeScope);

    /** {@code size}, parsed from {@code value}; a 400 that names {@code setting} when it is negative (such as -1). */
    public static ByteSizeValue nonNegative(String setting, String value, ByteSizeValue size) {
        if (size.getBytes() < 0) {
            throw new IllegalArgumentException("[" + setting + "] must be 0 or more bytes, got [" + value + "]");
        }
        return size;
    }

    public static List<Setting<?>> all() {
        return List.of(
                INDEX_COMPRESS,
                INDEX_DERIVED_SOURCE,
                DJL_CACHE_DIR,
                DJL_NUM_THREADS,
                DJL_NUM_INTEROP_THREADS,
                TRAINING_MAX_JOBS_PER_NODE,
                TRAINING_MAX_CORPUS_SIZE,
                TRAINING_SWEEP_INTERVAL,
                ModelCache.MAX_SIZE);
    }
}
