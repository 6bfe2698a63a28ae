package dev.compress.training.sampling;

import dev.compress.training.data.EmbeddedDataset;
import dev.compress.training.data.EvalSet;
import dev.compress.training.data.Progress;
import dev.compress.training.data.Qrels;
import dev.compress.training.data.VectorRows;
import dev.compress.training.data.VectorSet;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * What a trainer gets: the corpus, the training queries (only those of the train split), their
 * positive pairs, their mined hard negatives, the relevant set per training query (so random
 * negatives avoid it), and the validation set used for epoch selection. Test queries are not here.
 * The corpus may stay on disk: trainers read only the rows a batch touches and scan it by blocks.
 * {@code computed} holds what is derived from this data once and used by more than one part of the
 * job.
 */
public record TrainingData(
        VectorRows corpus,
        VectorSet queries,
        List<PositivePair> positives,
        int[][] hardNegatives,
        List<Set<Integer>> relevantDocs,
        EvalSet validation,
        ComputedOnce computed) {

    /**
     * Builds the training data of a split: positives from {@code qrels} (rating > 0, gain 2^rating - 1),
     * {@code hardNegativesPerQuery} hard negatives per training query mined with the frozen vectors.
     */
    public static TrainingData build(EmbeddedDataset ds, Qrels qrels, QuerySplit split, int hardNegativesPerQuery) {
        return build(ds, qrels, split, hardNegativesPerQuery, Progress.NONE);
    }

    /** {@link #build(EmbeddedDataset, Qrels, QuerySplit, int)}, telling {@code mining} how far the mining is. */
    public static TrainingData build(
            EmbeddedDataset ds, Qrels qrels, QuerySplit split, int hardNegativesPerQuery, Progress mining) {
        int[] rows = split.train().stream()
                .mapToInt(q -> {
                    int r = ds.queries().rowOf(q);
                    if (r < 0) {
                        throw new IllegalArgumentException("training query '" + q + "' has no vector");
                    }
                    return r;
                })
                .toArray();
        VectorSet queries = ds.queries().select(rows);
        Qrels trainQrels = qrels.restrictTo(new HashSet<>(split.train()));
        List<PositivePair> positives = new ArrayList<>();
        List<Set<Integer>> relevant = new ArrayList<>();
        for (int i = 0; i < queries.size(); i++) {
            Set<Integer> rel = new HashSet<>();
            for (var e : trainQrels.judgments(queries.id(i)).entrySet()) {
                int doc = ds.corpus().rowOf(e.getKey());
                if (doc >= 0 && e.getValue() > 0) {
                    positives.add(new PositivePair(i, doc, (float) (Math.pow(2, e.getValue()) - 1)));
                    rel.add(doc);
                }
            }
            relevant.add(Set.copyOf(rel));
        }
        int[][] hard = HardNegativeMiner.mine(queries, ds.corpus(), trainQrels, hardNegativesPerQuery, mining);
        EvalSet validation = ds.evalSet(qrels.restrictTo(new HashSet<>(split.validation())));
        return new TrainingData(
                ds.corpus(),
                queries,
                List.copyOf(positives),
                hard,
                List.copyOf(relevant),
                validation,
                new ComputedOnce());
    }

    public int dim() {
        return corpus.dim();
    }
}
