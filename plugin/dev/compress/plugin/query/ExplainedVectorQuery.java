package dev.compress.plugin.query;

import java.io.IOException;
import java.util.Objects;
import org.apache.lucene.index.LeafReaderContext;
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

    ExplainedVectorQuery(Query in, ScoreOrigin origin) {
        this.in = Objects.requireNonNull(in);
        this.origin = Objects.requireNonNull(origin);
    }

    /** How the wrapped query's scores are made. */
    ScoreOrigin origin() {
        return origin;
    }

    @Override
    public Query rewrite(IndexSearcher searcher) throws IOException {
        Query rewritten = in.rewrite(searcher);
        return rewritten == in ? this : new ExplainedVectorQuery(rewritten, origin);
    }

    @Override
    public Weight createWeight(IndexSearcher searcher, ScoreMode scoreMode, float boost) throws IOException {
        return new FilterWeight(this, in.createWeight(searcher, scoreMode, boost)) {
            @Override
            public Explanation explain(LeafReaderContext context, int doc) throws IOException {
                Explanation inner = in.explain(context, doc);
                return inner.isMatch()
                        ? origin.explain(inner.getValue().floatValue(), boost)
                        : origin.explainNoMatch(inner);
            }
        };
    }

    @Override
    public void visit(QueryVisitor visitor) {
        in.visit(visitor);
    }

    @Override
    public String toString(String field) {
        return in.toString(field);
    }

    @Override
    public boolean equals(Object other) {
        return sameClassAs(other)
                && in.equals(((ExplainedVectorQuery) other).in)
                && origin.equals(((ExplainedVectorQuery) other).origin);
    }

    @Override
    public int hashCode() {
        return Objects.hash(classHash(), in, origin);
    }
}
