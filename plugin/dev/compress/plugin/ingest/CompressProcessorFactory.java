package dev.compress.plugin.ingest;

import static org.opensearch.ingest.ConfigurationUtils.newConfigurationException;
import static org.opensearch.ingest.ConfigurationUtils.readBooleanProperty;
import static org.opensearch.ingest.ConfigurationUtils.readIntProperty;
import static org.opensearch.ingest.ConfigurationUtils.readOptionalStringProperty;
import static org.opensearch.ingest.ConfigurationUtils.readStringProperty;

import dev.compress.codec.VectorLimits;
import dev.compress.plugin.inference.ModelCache;
import dev.compress.plugin.stats.CompressCounters;
import java.util.Arrays;
import java.util.Map;
import java.util.function.Supplier;
import org.opensearch.ingest.AbstractBatchingProcessor;
import org.opensearch.ingest.IngestDocument;
import org.opensearch.ingest.Processor;

/**
 * Parses a {@code compress} processor's configuration. Every error names its parameter (the ingest
 * service answers 400, and rejects parameters left unread). The model is not looked up here: it is
 * loaded at first use, so creating a pipeline never waits on the model index.
 */
public final class CompressProcessorFactory extends AbstractBatchingProcessor.Factory {

    private static final int MAX_DIMENSION = VectorLimits.MAX_DIMENSIONS;
    /**
     * Documents per encode call unless {@code batch_size} says otherwise (the framework's default is 1):
     * the encoder reads each weight once per block of 32 rows, so single rows would re-read every weight per document.
     */
    static final int DEFAULT_BATCH_SIZE = 64;

    private final Supplier<ModelCache> modelCache;
    private final CompressCounters counters;

    public CompressProcessorFactory(Supplier<ModelCache> modelCache, CompressCounters counters) {
        super(CompressProcessor.TYPE);
        this.modelCache = modelCache;
        this.counters = counters;
    }

    @Override
    public AbstractBatchingProcessor create(
            Map<String, Processor.Factory> factories, String tag, String description, Map<String, Object> config)
            throws Exception {
        config.putIfAbsent(AbstractBatchingProcessor.BATCH_SIZE_FIELD, DEFAULT_BATCH_SIZE);
        return super.create(factories, tag, description, config);
    }

    @Override
    protected AbstractBatchingProcessor newProcessor(
            String tag, String description, int batchSize, Map<String, Object> config) {
        String type = CompressProcessor.TYPE;
        String field = readStringProperty(type, tag, config, "field");
        String targetField = readStringProperty(type, tag, config, "target_field");
        String modelId = readOptionalStringProperty(type, tag, config, "model_id");
        Integer truncateTo = readIntProperty(type, tag, config, "truncate_to", null);
        Integer dimension = readIntProperty(type, tag, config, "dimension", null);
        boolean ignoreMissing = readBooleanProperty(type, tag, config, "ignore_missing", false);
        requirePath(tag, "field", field);
        requirePath(tag, "target_field", targetField);
        requireSourceTarget(tag, targetField);
        if ((modelId == null) == (truncateTo == null)) {
            throw newConfigurationException(
                    type, tag, "model_id", "exactly one of [model_id] and [truncate_to] is required");
        }
        VectorCompression compression;
        if (modelId != null) {
            if (modelId.isBlank()) {
                throw newConfigurationException(type, tag, "model_id", "must not be empty");
            }
            requireDimension(tag, "dimension", dimension);
            compression = new ModelCompression(modelId, dimension, modelCache);
        } else {
            if (dimension != null) {
                throw newConfigurationException(
                        type, tag, "dimension", "applies only with [model_id]; [truncate_to] sets the dimension");
            }
            requireDimension(tag, "truncate_to", truncateTo);
            compression = new Truncation(truncateTo);
        }
        return new CompressProcessor(
                tag, description, batchSize, field, targetField, ignoreMissing, compression, counters);
    }

    /** A path the ingest document can hold: an empty one fails every document of every batch at run time. */
    private static void requirePath(String tag, String name, String path) {
        String rest = path.startsWith("_source.")
                ? path.substring("_source.".length())
                : path.startsWith("_ingest.") ? path.substring("_ingest.".length()) : path;
        if (rest.isBlank() || rest.startsWith(".") || rest.endsWith(".") || rest.contains("..")) {
            throw newConfigurationException(
                    CompressProcessor.TYPE, tag, name, "must be a field path, got [" + path + "]");
        }
    }

    /**
     * A vector written to a metadata field would become the document's id or routing, as text, and one written
     * under {@code _ingest} is dropped when the pipeline ends: the target is a field of the document's source.
     */
    private static void requireSourceTarget(String tag, String path) {
        boolean metadata = Arrays.stream(IngestDocument.Metadata.values())
                .anyMatch(m -> m.getFieldName().equals(path));
        if (metadata || path.startsWith("_ingest.")) {
            throw newConfigurationException(
                    CompressProcessor.TYPE,
                    tag,
                    "target_field",
                    "must be a field of the document's source, got the metadata field [" + path + "]");
        }
    }

    private static void requireDimension(String tag, String name, Integer value) {
        if (value != null && (value < 1 || value > MAX_DIMENSION)) {
            throw newConfigurationException(
                    CompressProcessor.TYPE, tag, name, "must be in [1, " + MAX_DIMENSION + "], got [" + value + "]");
        }
    }
}
