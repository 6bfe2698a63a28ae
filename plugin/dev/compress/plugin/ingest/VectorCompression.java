package dev.compress.plugin.ingest;

import org.opensearch.core.action.ActionListener;

/** The processor's compression: resolved per sub-batch, since a model loads asynchronously on first use. */
interface VectorCompression {

    void resolve(ActionListener<VectorTransform> listener);
}
