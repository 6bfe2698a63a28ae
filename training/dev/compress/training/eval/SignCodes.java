package dev.compress.training.eval;

import dev.compress.training.data.VectorSet;

/**
 * One bit per dimension: bit j of a vector is set when {@code x[j] - centre[j] > 0}. With a zero
 * centre this is plain sign binarisation; with the corpus mean it is the centred variant, which
 * balances the bits when a model's vectors share a common offset.
 */
public final class SignCodes {

    private final long[] words;
    private final int wordsPerVector;
    private final int size;

    private SignCodes(long[] words, int wordsPerVector, int size) {
        this.words = words;
        this.wordsPerVector = wordsPerVector;
        this.size = size;
    }

    public static SignCodes encode(VectorSet vectors, float[] centre) {
        int dim = vectors.dim();
        if (centre != null && centre.length != dim) {
            throw new IllegalArgumentException("centre has " + centre.length + " dims, vectors have " + dim);
        }
        int wpv = (dim + 63) / 64;
        long[] words = new long[vectors.size() * wpv];
        float[] data = vectors.data();
        for (int i = 0; i < vectors.size(); i++) {
            for (int j = 0; j < dim; j++) {
                float v = data[i * dim + j] - (centre == null ? 0f : centre[j]);
                if (v > 0f) {
                    words[i * wpv + (j >>> 6)] |= 1L << (j & 63);
                }
            }
        }
        return new SignCodes(words, wpv, vectors.size());
    }

    /** Mean vector of a set, the centre for centred binarisation. */
    public static float[] mean(VectorSet vectors) {
        int dim = vectors.dim();
        double[] sum = new double[dim];
        float[] data = vectors.data();
        for (int i = 0; i < vectors.size(); i++) {
            for (int j = 0; j < dim; j++) {
                sum[j] += data[i * dim + j];
            }
        }
        float[] mean = new float[dim];
        for (int j = 0; j < dim; j++) {
            mean[j] = (float) (sum[j] / vectors.size());
        }
        return mean;
    }

    public int size() {
        return size;
    }

    int hamming(int row, SignCodes other, int otherRow) {
        int d = 0;
        int a = row * wordsPerVector;
        int b = otherRow * other.wordsPerVector;
        for (int w = 0; w < wordsPerVector; w++) {
            d += Long.bitCount(words[a + w] ^ other.words[b + w]);
        }
        return d;
    }

    /** For each query code, the {@code n} corpus rows of smallest Hamming distance (ties: lower row first). */
    public static int[][] search(SignCodes queries, SignCodes corpus, int n) {
        if (queries.wordsPerVector != corpus.wordsPerVector) {
            throw new IllegalArgumentException("query and corpus codes differ in length");
        }
        int[][] out = new int[queries.size][];
        for (int q = 0; q < queries.size; q++) {
            TopK heap = new TopK(Math.min(n, corpus.size));
            for (int d = 0; d < corpus.size; d++) {
                heap.offer(-queries.hamming(q, corpus, d), d);
            }
            out[q] = heap.sortedRows();
        }
        return out;
    }
}
