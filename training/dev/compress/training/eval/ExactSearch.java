package dev.compress.training.eval;

import dev.compress.training.data.VectorSet;

/**
 * Exact maximum-inner-product search by blocked brute force: a block of queries against a block of
 * documents at a time, so both blocks stay in cache and memory use is bounded by the block sizes
 * (plus the inputs), whatever the corpus size.
 */
public final class ExactSearch {

    private static final int QUERY_BLOCK = 16;
    private static final int DOC_BLOCK = 256;

    private ExactSearch() {}

    /** For each query row, the {@code k} corpus rows with the highest dot product, best first. */
    public static int[][] search(VectorSet queries, VectorSet corpus, int k) {
        if (queries.dim() != corpus.dim()) {
            throw new IllegalArgumentException("query dim " + queries.dim() + " differs from corpus dim " + corpus.dim());
        }
        int dim = queries.dim();
        int nq = queries.size();
        int nd = corpus.size();
        float[] q = queries.data();
        float[] d = corpus.data();
        int[][] result = new int[nq][];
        float[] block = new float[QUERY_BLOCK * DOC_BLOCK];
        for (int q0 = 0; q0 < nq; q0 += QUERY_BLOCK) {
            int qn = Math.min(QUERY_BLOCK, nq - q0);
            TopK[] heaps = new TopK[qn];
            for (int i = 0; i < qn; i++) {
                heaps[i] = new TopK(Math.min(k, nd));
            }
            for (int d0 = 0; d0 < nd; d0 += DOC_BLOCK) {
                int dn = Math.min(DOC_BLOCK, nd - d0);
                for (int i = 0; i < qn; i++) {
                    int qOff = (q0 + i) * dim;
                    for (int j = 0; j < dn; j++) {
                        block[i * DOC_BLOCK + j] = dot(q, qOff, d, (d0 + j) * dim, dim);
                    }
                }
                for (int i = 0; i < qn; i++) {
                    for (int j = 0; j < dn; j++) {
                        heaps[i].offer(block[i * DOC_BLOCK + j], d0 + j);
                    }
                }
            }
            for (int i = 0; i < qn; i++) {
                result[q0 + i] = heaps[i].sortedRows();
            }
        }
        return result;
    }

    static float dot(float[] a, int aOff, float[] b, int bOff, int dim) {
        float s0 = 0, s1 = 0, s2 = 0, s3 = 0;
        int i = 0;
        for (; i + 3 < dim; i += 4) {
            s0 += a[aOff + i] * b[bOff + i];
            s1 += a[aOff + i + 1] * b[bOff + i + 1];
            s2 += a[aOff + i + 2] * b[bOff + i + 2];
            s3 += a[aOff + i + 3] * b[bOff + i + 3];
        }
        for (; i < dim; i++) {
            s0 += a[aOff + i] * b[bOff + i];
        }
        return (s0 + s1) + (s2 + s3);
    }
}
