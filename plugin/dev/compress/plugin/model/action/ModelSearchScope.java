package dev.compress.plugin.model.action;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import org.apache.lucene.search.BooleanClause;
import org.opensearch.index.query.QueryBuilder;
import org.opensearch.index.query.QueryBuilderVisitor;
import org.opensearch.index.query.TermsQueryBuilder;
import org.opensearch.search.aggregations.AggregationBuilder;
import org.opensearch.search.builder.SearchSourceBuilder;

/**
 * What a model search may ask for. The search runs as the plugin, since the model index is a system
 * index that a user allowed to search models cannot read, so the body must not reach past the model
 * documents: not the chunk documents that hold the model files (a {@code global} or significance
 * aggregation, a suggester), nor another index (a point in time, a terms lookup, a query that fetches
 * documents), nor a search pipeline that could rewrite the request. Queries and aggregations are
 * taken from a list of kinds that read only the documents they match (pipeline aggregations read
 * only other aggregations' results); anything else is a 400 that names it.
 */
final class ModelSearchScope {

    static final Set<String> QUERIES = Set.of(
            "bool",
            "boosting",
            "constant_score",
            "dis_max",
            "exists",
            "fuzzy",
            "ids",
            "match",
            "match_all",
            "match_bool_prefix",
            "match_none",
            "match_phrase",
            "match_phrase_prefix",
            "multi_match",
            "prefix",
            "query_string",
            "range",
            "regexp",
            "simple_query_string",
            "term",
            "terms",
            "wildcard");

    static final Set<String> AGGREGATIONS = Set.of(
            "avg",
            "cardinality",
            "date_histogram",
            "date_range",
            "extended_stats",
            "histogram",
            "max",
            "min",
            "missing",
            "percentiles",
            "range",
            "stats",
            "sum",
            "terms",
            "top_hits",
            "value_count");

    private ModelSearchScope() {}

    /** Throws an {@link IllegalArgumentException} naming the first part of {@code source} a model search refuses. */
    static void check(SearchSourceBuilder source) {
        refuse(source.suggest() != null, "[suggest]");
        refuse(source.pointInTimeBuilder() != null, "[pit]");
        refuse(source.pipeline() != null || source.searchPipelineSource() != null, "[search_pipeline]");
        refuse(source.rescores() != null && source.rescores().isEmpty() == false, "[rescore]");
        refuse(
                source.getDerivedFields() != null && source.getDerivedFields().isEmpty() == false
                        || source.getDerivedFieldsObject() != null
                                && source.getDerivedFieldsObject().isEmpty() == false,
                "[derived]");
        checkQuery(source.query(), "query");
        checkQuery(source.postFilter(), "post_filter");
        if (source.aggregations() != null) {
            checkAggregations(source.aggregations().getAggregatorFactories(), "aggs");
        }
    }

    private static void checkQuery(QueryBuilder query, String part) {
        if (query == null) {
            return;
        }
        List<QueryBuilder> all = new ArrayList<>();
        query.visit(collecting(all));
        for (QueryBuilder q : all) {
            if (QUERIES.contains(q.getWriteableName()) == false) {
                throw new IllegalArgumentException("[" + part + "] query type [" + q.getWriteableName()
                        + "] is not supported in a model search; supported types are " + sorted(QUERIES));
            }
            refuse(
                    q instanceof TermsQueryBuilder terms && terms.termsLookup() != null,
                    "a terms lookup in [" + part + "]");
        }
    }

    private static QueryBuilderVisitor collecting(List<QueryBuilder> all) {
        return new QueryBuilderVisitor() {
            @Override
            public void accept(QueryBuilder qb) {
                all.add(qb);
            }

            @Override
            public QueryBuilderVisitor getChildVisitor(BooleanClause.Occur occur) {
                return this;
            }
        };
    }

    private static void checkAggregations(Collection<AggregationBuilder> aggregations, String path) {
        for (AggregationBuilder aggregation : aggregations) {
            String where = path + "." + aggregation.getName();
            if (AGGREGATIONS.contains(aggregation.getType()) == false) {
                throw new IllegalArgumentException("[" + where + "] aggregation type [" + aggregation.getType()
                        + "] is not supported in a model search; supported types are " + sorted(AGGREGATIONS));
            }
            checkAggregations(aggregation.getSubAggregations(), where);
        }
    }

    private static void refuse(boolean present, String what) {
        if (present) {
            throw new IllegalArgumentException(
                    what + " is not supported in a model search: it could read past the model documents");
        }
    }

    private static List<String> sorted(Set<String> names) {
        return names.stream().sorted().toList();
    }
}
