package dev.compress.training.eval;

/** How the searched vectors are represented. */
public enum Encoding {
    /** float32 vectors, exact dot product. */
    FLOAT,
    /** one sign bit per dimension, Hamming top k. */
    BINARY,
    /** sign bits for a Hamming candidate list, reranked by the float query against the float documents. */
    BINARY_RESCORE;

    public String label() {
        return name().toLowerCase(java.util.Locale.ROOT).replace('_', '+');
    }
}
