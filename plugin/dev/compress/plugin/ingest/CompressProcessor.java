package dev.compress.plugin.ingest;

import dev.compress.plugin.mapper.VectorSimilarity;
import dev.compress.plugin.stats.CompressCounters;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.opensearch.core.action.ActionListener;
import org.opensearch.ingest.AbstractBatchingProcessor;
import org.opensearch.ingest.IngestDocument;
import org.opensearch.ingest.IngestDocumentWrapper;

/**
 * {@code compress}: reads the vector in {@code field}, compresses it (a stored model, or truncation)
 * and writes the result to {@code target_field}. Bulk requests arrive in sub-batches of
 * {@code batch_size} documents, each encoded in one call. A document whose vector is missing or bad
 * fails alone; a model that cannot be used fails the documents of that sub-batch that needed it.
 */
public final class CompressProcessor extends AbstractBatchingProcessor {

    public static final String TYPE = "compress";

    private static final Logger LOGGER = LogManager.getLogger(CompressProcessor.class);

    private final String field;
    private final String targetField;
    private final boolean ignoreMissing;
    private final VectorCompression compression;
    private final CompressCounters counters;

    CompressProcessor(
            String tag,
            String description,
            int batchSize,
            String field,
            String targetField,
            boolean ignoreMissing,
            VectorCompression compression,
            CompressCounters counters) {
        super(tag, description, batchSize);
        this.field = field;
        this.targetField = targetField;
        this.ignoreMissing = ignoreMissing;
        this.compression = compression;
        this.counters = counters;
    }

    @Override
    public String getType() {
        return TYPE;
    }

    int batchSize() {
        return batchSize;
    }

    /** Never called by the pipeline, which uses the asynchronous form: the model may still be loading. */
    @Override
    public IngestDocument execute(IngestDocument document) {
        throw new UnsupportedOperationException("[" + TYPE + "] runs asynchronously");
    }

    @Override
    public void execute(IngestDocument document, BiConsumer<IngestDocument, Exception> handler) {
        subBatchExecute(List.of(new IngestDocumentWrapper(0, 0, document, null)), results -> {
            Exception failure = results.get(0).getException();
            handler.accept(failure == null ? document : null, failure);
        });
    }

    @Override
    protected void subBatchExecute(List<IngestDocumentWrapper> batch, Consumer<List<IngestDocumentWrapper>> handler) {
        List<IngestDocumentWrapper> documents = new ArrayList<>();
        List<float[]> vectors = new ArrayList<>();
        for (IngestDocumentWrapper wrapper : batch) {
            if (wrapper.getException() != null) {
                continue;
            }
            Object value = wrapper.getIngestDocument().getFieldValue(field, Object.class, true);
            if (value == null) {
                if (ignoreMissing == false) {
                    fail(wrapper, new IllegalArgumentException("[" + TYPE + "] field [" + field + "] is missing"));
                }
                continue;
            }
            try {
                vectors.add(IngestVectors.read(value));
                documents.add(wrapper);
            } catch (IllegalArgumentException e) {
                fail(wrapper, fieldError(e));
            }
        }
        if (documents.isEmpty()) {
            handler.accept(batch);
            return;
        }
        // The handler runs the rest of the pipeline; a listener wrapper upstream that catches what it
        // throws and answers onFailure too must not run it a second time over the same documents.
        AtomicBoolean answered = new AtomicBoolean();
        compression.resolve(new ActionListener<>() {
            @Override
            public void onResponse(VectorTransform transform) {
                if (answered.compareAndSet(false, true) == false) {
                    return;
                }
                try {
                    compress(documents, vectors, transform);
                } catch (RuntimeException e) {
                    documents.forEach(wrapper -> fail(wrapper, e));
                }
                handler.accept(batch);
            }

            @Override
            public void onFailure(Exception e) {
                if (answered.compareAndSet(false, true) == false) {
                    LOGGER.warn("[" + TYPE + "] a failure arrived after its sub-batch was answered", e);
                    return;
                }
                documents.forEach(wrapper -> fail(wrapper, e));
                handler.accept(batch);
            }
        });
    }

    private void compress(List<IngestDocumentWrapper> documents, List<float[]> vectors, VectorTransform transform) {
        List<IngestDocumentWrapper> accepted = new ArrayList<>();
        List<float[]> inputs = new ArrayList<>();
        for (int i = 0; i < documents.size(); i++) {
            try {
                transform.check(vectors.get(i));
                accepted.add(documents.get(i));
                inputs.add(vectors.get(i));
            } catch (IllegalArgumentException e) {
                fail(documents.get(i), fieldError(e));
            }
        }
        if (accepted.isEmpty()) {
            return;
        }
        float[][] outputs = transform.apply(inputs.toArray(new float[0][]));
        for (int i = 0; i < outputs.length; i++) {
            String unusable = unusable(outputs[i]);
            if (unusable != null) {
                fail(
                        accepted.get(i),
                        fieldError(new IllegalArgumentException("compressing this vector, of length "
                                + (float) Math.sqrt(VectorSimilarity.squaredLength(inputs.get(i)))
                                + ", gave " + unusable)));
                continue;
            }
            try {
                accepted.get(i).getIngestDocument().setFieldValue(targetField, asList(outputs[i]));
                counters.ingestDocument();
            } catch (IllegalArgumentException e) { // e.g. the target's parent is not an object in this document
                fail(
                        accepted.get(i),
                        new IllegalArgumentException(
                                "[" + TYPE + "] cannot write [" + targetField + "]: " + e.getMessage(), e));
            }
        }
    }

    /**
     * What is wrong with an output no field should receive, or null. The zero vector is one: a truncation's
     * zero prefix, or a model's zero output, has no direction to normalise, and a cosine field refuses it.
     */
    private static String unusable(float[] output) {
        int bad = VectorSimilarity.firstNonFinite(output);
        if (bad >= 0) {
            return "the non-finite value [" + output[bad] + "] at position " + bad;
        }
        return VectorSimilarity.squaredLength(output) == 0 ? "the zero vector, which has no direction" : null;
    }

    private IllegalArgumentException fieldError(IllegalArgumentException e) {
        return new IllegalArgumentException("[" + TYPE + "] field [" + field + "]: " + e.getMessage(), e);
    }

    private void fail(IngestDocumentWrapper wrapper, Exception e) {
        counters.ingestError();
        wrapper.update(wrapper.getIngestDocument(), e);
    }

    private static List<Float> asList(float[] vector) {
        List<Float> list = new ArrayList<>(vector.length);
        for (float v : vector) {
            list.add(v);
        }
        return list;
    }
}
