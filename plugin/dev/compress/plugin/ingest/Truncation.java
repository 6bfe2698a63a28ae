package dev.compress.plugin.ingest;

import dev.compress.training.inference.VectorPrefix;
import org.opensearch.core.action.ActionListener;

/** Matryoshka truncation without a model: the first {@code truncate_to} values, L2-renormalised. */
final class Truncation implements VectorCompression, VectorTransform {

    private final int truncateTo;

    Truncation(int truncateTo) {
        this.truncateTo = truncateTo;
    }

    @Override
    public void resolve(ActionListener<VectorTransform> listener) {
        listener.onResponse(this);
    }

    @Override
    public void check(float[] vector) {
        if (vector.length < truncateTo) {
            throw new IllegalArgumentException(
                    "vector has " + vector.length + " dimensions, fewer than [truncate_to] " + truncateTo);
        }
    }

    @Override
    public float[][] apply(float[][] vectors) {
        float[][] out = new float[vectors.length][];
        for (int i = 0; i < vectors.length; i++) {
            out[i] = VectorPrefix.of(vectors[i], truncateTo, true);
        }
        return out;
    }
}
