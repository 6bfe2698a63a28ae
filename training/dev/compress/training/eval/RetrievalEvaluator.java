package dev.compress.training.eval;

import dev.compress.training.data.EvalSet;
import dev.compress.training.data.VectorSet;

import java.util.ArrayList;
import java.util.List;

/**
 * Scores an {@link EvalSet} (vectors already in the space to evaluate) under each {@link Encoding}:
 * exact float search, Hamming search on sign bits, and Hamming candidates reranked with the float
 * query. Centred bits subtract the corpus mean before taking signs (queries use the same centre).
 */
public final class RetrievalEvaluator {

    private final int k;
    private final int rescoreCandidates;
    private final boolean centredBits;

    public RetrievalEvaluator(int k, int rescoreCandidates, boolean centredBits) {
        if (k <= 0 || rescoreCandidates < k) {
            throw new IllegalArgumentException("need 0 < k <= rescoreCandidates, got k=" + k + " candidates=" + rescoreCandidates);
        }
        this.k = k;
        this.rescoreCandidates = rescoreCandidates;
        this.centredBits = centredBits;
    }

    /** nDCG@10 / recall@10, 100 Hamming candidates for rescoring, plain sign bits. */
    public static RetrievalEvaluator standard() {
        return new RetrievalEvaluator(10, 100, false);
    }

    public int k() {
        return k;
    }

    public Scores evaluate(EvalSet set, Encoding encoding) {
        int[][] ranked = switch (encoding) {
            case FLOAT -> ExactSearch.search(set.queries(), set.corpus(), k);
            case BINARY -> {
                SignCodes[] codes = codes(set);
                yield SignCodes.search(codes[0], codes[1], k);
            }
            case BINARY_RESCORE -> {
                SignCodes[] codes = codes(set);
                yield rescore(set.queries(), set.corpus(), SignCodes.search(codes[0], codes[1], rescoreCandidates));
            }
        };
        return score(set, ranked);
    }

    private SignCodes[] codes(EvalSet set) {
        float[] centre = centredBits ? SignCodes.mean(set.corpus()) : null;
        return new SignCodes[] {SignCodes.encode(set.queries(), centre), SignCodes.encode(set.corpus(), centre)};
    }

    private int[][] rescore(VectorSet queries, VectorSet corpus, int[][] candidates) {
        int dim = queries.dim();
        int[][] out = new int[candidates.length][];
        for (int q = 0; q < candidates.length; q++) {
            TopK heap = new TopK(Math.min(k, candidates[q].length));
            for (int row : candidates[q]) {
                heap.offer(ExactSearch.dot(queries.data(), q * dim, corpus.data(), row * dim, dim), row);
            }
            out[q] = heap.sortedRows();
        }
        return out;
    }

    private Scores score(EvalSet set, int[][] ranked) {
        int nq = set.queries().size();
        double[] ndcg = new double[nq];
        double[] recall = new double[nq];
        for (int q = 0; q < nq; q++) {
            List<String> docs = new ArrayList<>(ranked[q].length);
            for (int row : ranked[q]) {
                docs.add(set.corpus().id(row));
            }
            var judgments = set.qrels().judgments(set.queries().id(q));
            ndcg[q] = RetrievalMetrics.ndcg(docs, judgments, k);
            recall[q] = RetrievalMetrics.recall(docs, judgments, k);
        }
        return Scores.of(ndcg, recall);
    }
}
