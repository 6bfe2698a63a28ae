package dev.compress.training.eval;

import dev.compress.training.data.Progress;
import dev.compress.training.data.VectorRows;
import dev.compress.training.data.VectorSet;

/**
 * Exact maximum-inner-product search by blocked brute force: the corpus is read one block of rows at a
 * time and scored against the queries 16 queries x 256 documents at a time (both stay in cache), each
 * query keeping its top k in a heap. Memory is the queries, their heaps and one block, whatever the
 * corpus size or where it lives.
 */
public final class ExactSearch {

    private static final int QUERY_BLOCK = 16;
    private static final int DOC_BLOCK = 256;

    private ExactSearch() {}

    /** For each query row, the {@code k} corpus rows with the highest dot product, best first. */
    public static int[][] search(VectorSet queries, VectorRows corpus, int k) {
        return search(queries, corpus, k, Progress.NONE);
    }

    /** {@link #search(VectorSet, VectorRows, int)}, telling {@code rows} how many corpus rows it has scored. */
    public static int[][] search(VectorSet queries, VectorRows corpus, int k, Progress rows) {
        if (queries.dim() != corpus.dim()) {
            throw new IllegalArgumentException(
                    "query dim " + queries.dim() + " differs from corpus dim " + corpus.dim());
        }
        TopK[] heaps = TopK.array(queries.size(), Math.min(k, corpus.size()));
        corpus.forEachBlock((start, count, block) -> {
            offer(queries, block, start, count, heaps);
            rows.done(start + count, corpus.size());
        });
        return TopK.sortedRows(heaps);
    }

    /** Offers every query's dot product with corpus rows {@code [start, start + count)} (in {@code rows}) to its heap. */
    static void offer(VectorSet queries, float[] rows, int start, int count, TopK[] heaps) {
        int dim = queries.dim();
        int nq = queries.size();
        float[] q = queries.data();
        float[] scores = new float[QUERY_BLOCK * DOC_BLOCK];
        for (int d0 = 0; d0 < count; d0 += DOC_BLOCK) {
            int dn = Math.min(DOC_BLOCK, count - d0);
            for (int q0 = 0; q0 < nq; q0 += QUERY_BLOCK) {
                int qn = Math.min(QUERY_BLOCK, nq - q0);
                for (int i = 0; i < qn; i++) {
                    int qOff = (q0 + i) * dim;
                    int j = 0;
                    for (; j + 3 < dn; j += 4) {
                        int row = (d0 + j) * dim;
                        DotProduct.ofFour(
                                q,
                                qOff,
                                rows,
                                row,
                                row + dim,
                                row + 2 * dim,
                                row + 3 * dim,
                                dim,
                                scores,
                                i * DOC_BLOCK + j);
                    }
                    for (; j < dn; j++) {
                        scores[i * DOC_BLOCK + j] = DotProduct.of(q, qOff, rows, (d0 + j) * dim, dim);
                    }
                }
                for (int i = 0; i < qn; i++) {
                    for (int j = 0; j < dn; j++) {
                        heaps[q0 + i].offer(scores[i * DOC_BLOCK + j], start + d0 + j);
                    }
                }
            }
        }
    }
}
