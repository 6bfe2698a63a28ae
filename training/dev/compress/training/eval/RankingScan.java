package dev.compress.training.eval;

import dev.compress.training.data.VectorRows;
import dev.compress.training.data.VectorSet;
import java.util.List;
import java.util.Set;

/**
 * The rankings of a query set under several {@link Encoding}s, built in one scan of the corpus blocks,
 * so a corpus that is read from disk or encoded on the fly is read (and encoded) once for all of them.
 * Binary rescoring keeps the Hamming candidates with their float scores, computed while the candidate's
 * block is at hand; reranking them at the end gives the same top k as scoring the candidates afterwards.
 *
 * <p>Documents of equal score rank as trec_eval ranks them, by document id in reverse string order, so
 * that the metrics are trec_eval's for the run these rankings are. Equal scores are common: corpora
 * hold duplicate documents (nfcorpus holds 40, and its reference figures rank them so), and Hamming
 * distances are whole numbers.
 */
final class RankingScan {

    private final VectorSet queries;
    private final float[] centre;
    private final TopK[] floatTop;
    private final TopK[] bitsTop;
    private final TopK[] candidates;
    private final SignCodes queryCodes;
    private final int k;
    private final List<String> corpusIds;

    /**
     * @param corpusIds the corpus rows' document ids
     * @param centre    subtracted before taking signs (null: plain signs)
     */
    RankingScan(
            VectorSet queries,
            List<String> corpusIds,
            Set<Encoding> encodings,
            int k,
            int rescoreCandidates,
            float[] centre) {
        this.queries = queries;
        this.centre = centre;
        this.k = k;
        this.corpusIds = corpusIds;
        int n = queries.size();
        int corpusSize = corpusIds.size();
        floatTop = encodings.contains(Encoding.FLOAT) ? TopK.array(n, Math.min(k, corpusSize), corpusIds) : null;
        bitsTop = encodings.contains(Encoding.BINARY) ? TopK.array(n, Math.min(k, corpusSize), corpusIds) : null;
        candidates = encodings.contains(Encoding.BINARY_RESCORE)
                ? TopK.array(n, Math.min(rescoreCandidates, corpusSize), corpusIds)
                : null;
        queryCodes = bitsTop != null || candidates != null
                ? SignCodes.encode(queries.data(), n, queries.dim(), centre)
                : null;
    }

    static RankingScan over(
            VectorSet queries,
            VectorRows corpus,
            Set<Encoding> encodings,
            int k,
            int rescoreCandidates,
            float[] centre) {
        if (queries.dim() != corpus.dim()) {
            throw new IllegalArgumentException(
                    "query dim " + queries.dim() + " differs from corpus dim " + corpus.dim());
        }
        RankingScan scan = new RankingScan(queries, corpus.ids(), encodings, k, rescoreCandidates, centre);
        corpus.forEachBlock(scan::accept);
        return scan;
    }

    /** Scores corpus rows {@code [start, start + count)}, held row-major in {@code rows}. */
    void accept(int start, int count, float[] rows) {
        if (floatTop != null) {
            ExactSearch.offer(queries, rows, start, count, floatTop);
        }
        if (queryCodes == null) {
            return;
        }
        int dim = queries.dim();
        SignCodes codes = SignCodes.encode(rows, count, dim, centre);
        for (int q = 0; q < queries.size(); q++) {
            for (int j = 0; j < count; j++) {
                float score = -queryCodes.hamming(q, codes, j);
                if (bitsTop != null) {
                    bitsTop[q].offer(score, start + j);
                }
                if (candidates != null && candidates[q].keeps(score, start + j)) {
                    candidates[q].offer(score, start + j, DotProduct.of(queries.data(), q * dim, rows, j * dim, dim));
                }
            }
        }
    }

    /** Each query's top k corpus rows under {@code encoding} (which the scan must have been built for), best first. */
    int[][] ranked(Encoding encoding) {
        return switch (encoding) {
            case FLOAT -> TopK.sortedRows(floatTop);
            case BINARY -> TopK.sortedRows(bitsTop);
            case BINARY_RESCORE -> {
                int[][] out = new int[candidates.length][];
                for (int q = 0; q < candidates.length; q++) {
                    TopK heap = new TopK(Math.min(k, candidates[q].size()), corpusIds);
                    for (int i = 0; i < candidates[q].size(); i++) {
                        heap.offer(candidates[q].payload(i), candidates[q].row(i));
                    }
                    out[q] = heap.sortedRows();
                }
                yield out;
            }
        };
    }
}
