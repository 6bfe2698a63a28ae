package dev.compress.training.eval;

import dev.compress.training.data.VectorRows;

/**
 * One bit per dimension: bit j of a vector is set when {@code x[j] - centre[j] > 0}. With a zero
 * centre this is plain sign binarisation; with the corpus mean it is the centred variant, which
 * balances the bits when a model's vectors share a common offset.
 */
final class SignCodes {

    private final long[] words;
    private final int wordsPerVector;

    private SignCodes(long[] words, int wordsPerVector) {
        this.words = words;
        this.wordsPerVector = wordsPerVector;
    }

    /** Codes of {@code count} rows of {@code dim} values stored row-major in {@code rows}. */
    static SignCodes encode(float[] rows, int count, int dim, float[] centre) {
        if (centre != null && centre.length != dim) {
            throw new IllegalArgumentException("centre has " + centre.length + " dims, vectors have " + dim);
        }
        int wpv = (dim + 63) / 64;
        long[] words = new long[count * wpv];
        for (int i = 0; i < count; i++) {
            for (int j = 0; j < dim; j++) {
                float v = rows[i * dim + j] - (centre == null ? 0f : centre[j]);
                if (v > 0f) {
                    words[i * wpv + (j >>> 6)] |= 1L << (j & 63);
                }
            }
        }
        return new SignCodes(words, wpv);
    }

    /** Mean vector of a source, the centre for centred binarisation (one pass over its blocks). */
    static float[] mean(VectorRows vectors) {
        int dim = vectors.dim();
        double[] sum = new double[dim];
        vectors.forEachBlock((start, count, rows) -> {
            for (int i = 0; i < count; i++) {
                for (int j = 0; j < dim; j++) {
                    sum[j] += rows[i * dim + j];
                }
            }
        });
        float[] mean = new float[dim];
        for (int j = 0; j < dim; j++) {
            mean[j] = (float) (sum[j] / vectors.size());
        }
        return mean;
    }

    /** Hamming distance between this set's {@code row} and {@code other}'s {@code otherRow} (codes of one length). */
    int hamming(int row, SignCodes other, int otherRow) {
        int d = 0;
        int a = row * wordsPerVector;
        int b = otherRow * other.wordsPerVector;
        for (int w = 0; w < wordsPerVector; w++) {
            d += Long.bitCount(words[a + w] ^ other.words[b + w]);
        }
        return d;
    }
}
