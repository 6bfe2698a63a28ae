package dev.compress.training.sampling;

import dev.compress.training.data.Progress;
import dev.compress.training.data.Qrels;
import dev.compress.training.data.VectorRows;
import dev.compress.training.data.VectorSet;
import dev.compress.training.eval.ExactSearch;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Hard negatives from the frozen embeddings: for each query, the top-K corpus documents that are not
 * judged relevant (rating > 0). Judged-irrelevant documents (rating 0) are kept: they are real
 * negatives. The search is blocked brute force over the corpus blocks ({@link ExactSearch}), so memory
 * is bounded by K x queries plus the queries and one block, wherever the corpus lives.
 */
public final class HardNegativeMiner {

    private HardNegativeMiner() {}

    /** Row i lists corpus rows for query row i of {@code queries}, hardest first. */
    public static int[][] mine(VectorSet queries, VectorRows corpus, Qrels qrels, int k) {
        return mine(queries, corpus, qrels, k, Progress.NONE);
    }

    /** {@link #mine(VectorSet, VectorRows, Qrels, int)}, telling {@code rows} how many corpus rows it has searched. */
    public static int[][] mine(VectorSet queries, VectorRows corpus, Qrels qrels, int k, Progress rows) {
        int maxRelevant = 0;
        for (String q : queries.ids()) {
            maxRelevant = Math.max(maxRelevant, qrels.relevant(q).size());
        }
        int[][] ranked = ExactSearch.search(queries, corpus, Math.min(corpus.size(), k + maxRelevant), rows);
        int[][] out = new int[queries.size()][];
        for (int i = 0; i < queries.size(); i++) {
            Map<String, Integer> judged = qrels.judgments(queries.id(i));
            int[] kept = new int[k];
            int n = 0;
            for (int row : ranked[i]) {
                if (n == k) {
                    break;
                }
                if (judged.getOrDefault(corpus.id(row), 0) <= 0) {
                    kept[n++] = row;
                }
            }
            out[i] = Arrays.copyOf(kept, n);
        }
        return out;
    }

    /**
     * The same with relevance given as corpus-row sets ({@code relevant.get(i)} for query row i): the
     * top-k documents outside the set, hardest first.
     */
    public static int[][] mine(VectorSet queries, VectorRows corpus, List<Set<Integer>> relevant, int k) {
        int maxRelevant = relevant.stream().mapToInt(Set::size).max().orElse(0);
        int[][] ranked = ExactSearch.search(queries, corpus, Math.min(corpus.size(), k + maxRelevant));
        int[][] out = new int[queries.size()][];
        for (int i = 0; i < queries.size(); i++) {
            int[] kept = new int[k];
            int n = 0;
            for (int row : ranked[i]) {
                if (n == k) {
                    break;
                }
                if (!relevant.get(i).contains(row)) {
                    kept[n++] = row;
                }
            }
            out[i] = Arrays.copyOf(kept, n);
        }
        return out;
    }
}
