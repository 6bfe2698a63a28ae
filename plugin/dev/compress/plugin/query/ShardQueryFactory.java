package dev.compress.plugin.query;

import static dev.compress.plugin.query.CompressedKnnQueryBuilder.NAME;

import dev.compress.plugin.mapper.CompressedVectorFieldType;
import dev.compress.plugin.mapper.NestedObjects;
import dev.compress.plugin.mapper.VectorFieldConfig;
import dev.compress.plugin.mapper.VectorSimilarity;
import java.io.IOException;
import org.apache.lucene.search.MatchNoDocsQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.join.BitSetProducer;
import org.opensearch.index.mapper.MappedFieldType;
import org.opensearch.index.mapper.ObjectMapper;
import org.opensearch.index.query.QueryShardContext;
import org.opensearch.index.query.QueryShardException;

/**
 * Turns a rewritten {@code compressed_knn} query into a shard's Lucene query: checks it against the
 * field's mapping, applies the mask, and picks the k-nearest or radial search.
 */
final class ShardQueryFactory {

    private ShardQueryFactory() {}

    static Query create(CompressedKnnQueryBuilder q, QueryShardContext context) throws IOException {
        // a search applies both before its shards; a query a shard reads alone (an alias filter, say) has no such step
        if (q.modelId() != null) {
            throw new QueryShardException(
                    context,
                    "[" + NAME + "] [model_id] [" + q.modelId() + "] is applied by a search before it reaches the"
                            + " shards, and cannot be used where a shard reads the query alone (such as an alias"
                            + " filter)");
        }
        if (q.mask() != null && q.mask().isResolved() == false) {
            throw new QueryShardException(
                    context,
                    "[" + NAME + "] [mask] type [" + q.mask().type().jsonName() + "] is resolved by a search before it"
                            + " reaches the shards, and cannot be used where a shard reads the query alone (such as an"
                            + " alias filter)");
        }
        MappedFieldType mapped = context.fieldMapper(q.field());
        if (mapped == null) {
            if (q.ignoreUnmapped()) {
                return new MatchNoDocsQuery("field [" + q.field() + "] is not mapped");
            }
            throw new QueryShardException(
                    context, "[" + NAME + "] field [" + q.field() + "] does not exist in the mapping");
        }
        if (mapped instanceof CompressedVectorFieldType == false) {
            throw new QueryShardException(
                    context,
                    "[" + NAME + "] field [" + q.field() + "] is of type [" + mapped.typeName()
                            + "], not [compressed_vector]");
        }
        VectorFieldConfig config = ((CompressedVectorFieldType) mapped).config();
        if (q.vector().length != config.dimension()) {
            throw new QueryShardException(
                    context,
                    "[" + NAME + "] [vector] has " + q.vector().length + " dimensions"
                            + (q.adaptedBy() == null
                                    ? ""
                                    : " as model [" + q.adaptedBy() + "] adapted it (search the field that holds"
                                            + " that model's output, or, for a model with several outputs, name the"
                                            + " one the field holds in [model_dimension]),")
                            + " but field [" + q.field() + "] has " + config.dimension());
        }
        if (config.similarity() == VectorSimilarity.DOT_PRODUCT) {
            // the query as sent (or adapted): a mask then zeroes some of its values, which only lowers every score
            try {
                VectorSimilarity.checkUnitLength(
                        "[" + NAME + "] [vector] searches field [" + q.field() + "] with similarity [dot_product]",
                        VectorSimilarity.squaredLength(q.vector()));
            } catch (IllegalArgumentException e) {
                throw new QueryShardException(context, e.getMessage());
            }
        }
        float[] target = q.mask() == null ? q.vector() : maskedVector(q, context, config);
        if (config.similarity() == VectorSimilarity.COSINE) {
            try {
                VectorSimilarity.checkCosineLength(
                        "field [" + q.field() + "] uses similarity [cosine], and [" + NAME + "] [vector]"
                                + (q.mask() == null ? "" : " after [mask]"),
                        VectorSimilarity.squaredLength(target));
            } catch (IllegalArgumentException e) {
                throw new QueryShardException(context, e.getMessage());
            }
        }
        Query luceneFilter = q.filter() == null ? null : q.filter().toQuery(context);
        // the field the name resolves to: a field alias names another field, whose vectors the index holds
        ShardVectorQuery shardQuery = new ShardVectorQuery(
                mapped.name(),
                config,
                target,
                q.mask() == null ? null : q.mask().kept(),
                luceneFilter,
                nestedParents(q, mapped.name(), context));
        if (q.expandNestedDocs() && shardQuery.parents() == null) {
            throw new QueryShardException(
                    context,
                    "[" + NAME
                            + "] [expand_nested_docs] applies inside a [nested] query only, and field [" + q.field()
                            + "] is searched outside one");
        }
        return q.k() != null
                ? shardQuery.nearest(q.k(), q.numCandidates(), q.rescore(), q.expandNestedDocs())
                : radialQuery(q, context, config, shardQuery);
    }

    /**
     * Inside a {@code nested} query, the parents of the nested documents the field's vectors are in,
     * so that the k nearest are diversified by parent; null elsewhere. The field must lie in the
     * nested object the query's path names, no deeper and not outside it: its vectors are in the
     * documents of its innermost nested object, and a walk diversified by the parents of another
     * level finds none, or only documents the search then drops. Each case is a 400 naming the path.
     */
    private static BitSetProducer nestedParents(CompressedKnnQueryBuilder q, String field, QueryShardContext context) {
        ObjectMapper nested = NestedObjects.innermostNested(context::getObjectMapper, field);
        ObjectMapper scope = context.nestedScope().getObjectMapper();
        if (scope == null && nested == null) {
            return null;
        }
        if (scope == null) {
            throw new QueryShardException(
                    context,
                    "[" + NAME + "] field [" + q.field() + "] is inside nested field [" + nested.fullPath()
                            + "]: search it within a [nested] query with [path: " + nested.fullPath() + "]");
        }
        if (nested == null) {
            throw new QueryShardException(
                    context,
                    "[" + NAME + "] field [" + q.field() + "] is inside no nested field, but is searched within a"
                            + " [nested] query with [path: " + scope.fullPath() + "]: search it outside that query");
        }
        if (nested.fullPath().equals(scope.fullPath()) == false) {
            throw new QueryShardException(
                    context,
                    "[" + NAME + "] field [" + q.field() + "] is inside nested field [" + nested.fullPath()
                            + "], but is searched within a [nested] query with [path: " + scope.fullPath()
                            + "]: search it within a [nested] query with [path: " + nested.fullPath() + "]");
        }
        return context.getParentFilter();
    }

    /**
     * {@code min_score}, or {@code max_distance} as the score of that distance. Radial search scores
     * every document exactly, so it needs float vectors: a codes-only field has none.
     */
    private static ExplainedVectorQuery radialQuery(
            CompressedKnnQueryBuilder q,
            QueryShardContext context,
            VectorFieldConfig config,
            ShardVectorQuery shardQuery) {
        String param = q.minScore() != null ? "[min_score]" : "[max_distance]";
        if (config.keepsFloats() == false) {
            throw new QueryShardException(
                    context,
                    "[" + NAME + "] " + param + " needs the float vectors of field ["
                            + q.field()
                            + "], which has [encoding: binary] with [rescore_vectors: false]; search it with [k]");
        }
        if (q.minScore() != null) {
            return shardQuery.within(q.minScore(), "score >= " + q.minScore());
        }
        if (config.similarity() != VectorSimilarity.L2) {
            throw new QueryShardException(
                    context,
                    "[" + NAME
                            + "] [max_distance] applies to fields with similarity [l2], but field [" + q.field()
                            + "] uses [" + config.similarity().jsonName() + "]: use [min_score]");
        }
        return shardQuery.within(
                VectorSimilarity.scoreOfDistance(q.maxDistance()),
                "l2 distance <= " + q.maxDistance() + " (score >= " + VectorSimilarity.scoreOfDistance(q.maxDistance())
                        + ")");
    }

    /**
     * The query with the dimensions the mask drops set to zero: its similarity to a document is the
     * masked one on float fields and, on binary fields, the codes' usual estimator estimates it (it ranked
     * better than restricting the estimate to the mask's bits: docs/benchmarks.md, "Masked search on the codec").
     */
    private static float[] maskedVector(
            CompressedKnnQueryBuilder q, QueryShardContext context, VectorFieldConfig config) {
        int[] kept = q.mask().kept();
        if (kept[kept.length - 1] >= config.dimension()) {
            throw new QueryShardException(
                    context,
                    "[" + NAME + "] [mask.kept] keeps dimension " + kept[kept.length - 1] + " but field [" + q.field()
                            + "] has " + config.dimension() + ", numbered 0 to " + (config.dimension() - 1));
        }
        float[] masked = new float[q.vector().length];
        for (int j : kept) {
            masked[j] = q.vector()[j];
        }
        return masked;
    }
}
