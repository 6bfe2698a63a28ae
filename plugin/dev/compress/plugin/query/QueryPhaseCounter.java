package dev.compress.plugin.query;

import dev.compress.plugin.stats.CompressCounters;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.QueryVisitor;
import org.opensearch.index.shard.SearchOperationListener;
import org.opensearch.search.internal.SearchContext;

/**
 * Counts the {@code compressed_knn} queries a shard ran, once per query phase that completes. A
 * query is built again for a search's dfs and fetch phases, so counting where it is built would
 * count one search up to three times on a shard.
 */
public final class QueryPhaseCounter implements SearchOperationListener {

    private final CompressCounters counters;

    public QueryPhaseCounter(CompressCounters counters) {
        this.counters = counters;
    }

    @Override
    public void onQueryPhase(SearchContext searchContext, long tookInNanos) {
        Query query = searchContext.query();
        if (query == null) {
            return;
        }
        query.visit(new QueryVisitor() {
            @Override
            public QueryVisitor getSubVisitor(BooleanClause.Occur occur, Query parent) {
                if (parent instanceof ExplainedVectorQuery vector) {
                    vector.count(counters);
                }
                return this; // also below must_not: the query runs there too
            }
        });
    }
}
