package dev.compress.codec.binary;

/**
 * How a segment's binary fields are written. Only affects writing: readers take both flags from
 * the segment's metadata.
 *
 * @param storeFloats keep the float32 vectors on disk for exact rescoring ({@code
 *     rescore_vectors}); when false only codes are stored and the field reads back as decoded
 *     vectors ({@link SignBinarizer#decode})
 * @param centred take codes against the segment mean instead of zero
 */
public record BinaryCodeOptions(boolean storeFloats, boolean centred) {

    /**
     * Centring is on by default. Embeddings share a common direction, so around zero many dimensions
     * have the same sign for most vectors and their bits tell vectors apart poorly; around the
     * segment mean each bit splits its dimension, and the estimate ranks the true neighbours higher
     * (better recall@10 at the same candidate budget, equal nDCG@10 after rescoring, on scifact).
     * Recall of the default codes: {@code bench/run quick codec}; the harness has no uncentred index,
     * so a comparison needs {@code new BinaryCodeOptions(true, false)} in its index list.
     */
    public static final boolean DEFAULT_CENTRED = true;

    public static final BinaryCodeOptions DEFAULT = new BinaryCodeOptions(true, DEFAULT_CENTRED);
}
