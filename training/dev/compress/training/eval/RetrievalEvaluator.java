package dev.compress.training.eval;

import dev.compress.training.data.EvalSet;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

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
            throw new IllegalArgumentException(
                    "need 0 < k <= rescoreCandidates, got k=" + k + " candidates=" + rescoreCandidates);
        }
        this.k = k;
        this.rescoreCandidates = rescoreCandidates;
        this.centredBits = centredBits;
    }

    /** nDCG@10 / recall@10, 100 Hamming candidates for rescoring, plain sign bits. */
    public static RetrievalEvaluator standard() {
        return new RetrievalEvaluator(10, 100, false);
    }

    public Scores evaluate(EvalSet set, Encoding encoding) {
        return evaluate(set, EnumSet.of(encoding)).get(encoding);
    }

    /**
     * Scores under each of {@code encodings} from one scan of the corpus (plus one for the centre of
     * centred bits), so memory stays at the queries' heaps and one corpus block.
     */
    public Map<Encoding, Scores> evaluate(EvalSet set, Set<Encoding> encodings) {
        boolean bits = encodings.contains(Encoding.BINARY) || encodings.contains(Encoding.BINARY_RESCORE);
        float[] centre = bits && centredBits ? SignCodes.mean(set.corpus()) : null;
        RankingScan scan = RankingScan.over(set.queries(), set.corpus(), encodings, k, rescoreCandidates, centre);
        Map<Encoding, Scores> out = new EnumMap<>(Encoding.class);
        for (Encoding e : encodings) {
            out.put(e, score(set, scan.ranked(e)));
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
