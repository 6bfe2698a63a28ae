package dev.compress.training.data;

/**
 * Queries to evaluate, the corpus to search and the judgments that score the result. Query row i
 * of {@code queries} has id {@code queries.id(i)}, which is a query of {@code qrels}. The corpus may
 * be on disk or a lazily encoded view: it is only ever read by blocks or single rows.
 */
public record EvalSet(VectorSet queries, VectorRows corpus, Qrels qrels) {

    public EvalSet {
        if (queries.dim() != corpus.dim()) {
            throw new IllegalArgumentException(
                    "query dim " + queries.dim() + " differs from corpus dim " + corpus.dim());
        }
    }

    /** The same queries and judgments with both sides replaced by encoded vectors (same ids, same order). */
    public EvalSet encoded(VectorSet encodedQueries, VectorRows encodedCorpus) {
        return new EvalSet(encodedQueries, encodedCorpus, qrels);
    }
}
