package dev.compress.plugin.ingest;

/** What the {@code compress} processor does to the vectors of a sub-batch, once its model is at hand. */
interface VectorTransform {

    /** Throws {@link IllegalArgumentException} saying why when this vector cannot be transformed. */
    void check(float[] vector);

    /** Transforms checked vectors, all in one call. */
    float[][] apply(float[][] vectors);
}
