package dev.compress.plugin.query;

import dev.compress.plugin.stats.CompressCounters;
import java.io.IOException;
import java.util.Objects;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.Explanation;
import org.apache.lucene.search.FilterWeight;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.QueryVisitor;
import org.apache.lucene.search.ScoreMode;
import org.apache.lucene.search.Weight;

/**
 * A {@code compressed_knn} shard query that matches and scores as the query it wraps, and explains
 * its hits with their {@link ScoreOrigin}: Lucene's kNN queries explain a hit only as being within
 * the top k, which says nothing of whether the score is exact, estimated, rescored or masked.
 */
final class ExplainedVectorQuery extends Query {

    private final Query in;
    private final ScoreOrigin origin;
    private final Query filter;

    /**
     * {@code filter}: the query's filter or null, for the node's query counts ({@link QueryPhaseCounter}) and
     * to explain a document it excludes.
     */
    ExplainedVectorQuery(Query in, ScoreOrigin origin, Query filter) {
        this.in = Objects.requireNonNull(in);
        this.origin = Objects.requireNonNull(origin);
        this.filter = filter;
    }

    @Override
    public Query rewrite(IndexSearcher searcher) throws IOException {
        Query rewritten = in.rewrite(searcher);
        return rewritten == in ? this : new ExplainedVectorQuery(rewritten, origin, filter);
    }

    @Override
    public Weight createWeight(IndexSearcher searcher, ScoreMode scoreMode, float boost) throws IOException {
        return new FilterWeight(this, in.createWeight(searcher, scoreMode, boost)) {
            @Override
            public Explanation explain(LeafReaderContext context, int doc) throws IOException {
                Explanation inner = in.explain(context, doc);
                if (inner.isMatch()) {
                    return origin.explain(inner.getValue().floatValue(), boost);
                }
                if (filter != null) {
                    Explanation filtered = searcher.createWeight(
                                    searcher.rewrite(filter), ScoreMode.COMPLETE_NO_SCORES, 1f)
                            .explain(context, doc);
                    if (filtered.isMatch() == false) {
                        return origin.explainNoMatch("the filter excludes it", filtered);
                    }
                }
                // Lucene's kNN queries explain a document outside their top k with an empty description
                return inner.getDescription().isEmpty()
                        ? origin.explainNoMatch(null, null)
                        : origin.explainNoMatch(null, inner);
            }
        };
    }

    /** Adds this query to the node's counts of the queries its shards ran. */
    void count(CompressCounters counters) {
        counters.shardQuery(origin.method().rescored(), filter != null, origin.kept() != null);
    }

    /** The wrapped query is visited as this query's one required clause, so that a visitor can find this query. */
    @Override
    public void visit(QueryVisitor visitor) {
        in.visit(visitor.getSubVisitor(BooleanClause.Occur.MUST, this));
    }

    @Override
    public String toString(String field) {
        return in.toString(field);
    }

    @Override
    public boolean equals(Object other) {
        return sameClassAs(other)
                && in.equals(((ExplainedVectorQuery) other).in)
                && origin.equals(((ExplainedVectorQuery) other).origin)
                && Objects.equals(filter, ((ExplainedVectorQuery) other).filter);
    }

    @Override
    public int hashCode() {
        return Objects.hash(classHash(), in, origin, filter);
    }
}
