package dev.compress.plugin.query;

import dev.compress.codec.search.ParentJoin;
import dev.compress.codec.search.RescoringKnnQuery;
import dev.compress.codec.search.SimilarityThresholdQuery;
import dev.compress.plugin.mapper.VectorEncoding;
import dev.compress.plugin.mapper.VectorFieldConfig;
import dev.compress.plugin.mapper.VectorSimilarity;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.join.BitSetProducer;

/**
 * The Lucene query a shard runs for a checked {@code compressed_knn}, wrapped so that {@code explain}
 * reports how its scores were made ({@link ExplainedVectorQuery}).
 *
 * @param target the query vector, adapted and masked, of the field's dimension
 * @param kept the mask's kept dimensions, or null without a mask
 * @param filter the Lucene form of the query's filter, or null
 * @param parents inside a {@code nested} query, the parents of the field's (nested) documents; else null
 */
record ShardVectorQuery(
        String field, VectorFieldConfig config, float[] target, int[] kept, Query filter, BitSetProducer parents) {

    /**
     * The k nearest: float fields walk the float graph with a beam of {@code numCandidates} (default
     * {@value CompressedKnnQueryBuilder#DEFAULT_NUM_CANDIDATES}); binary fields walk the codes for
     * {@code k * oversample} candidates and, unless rescoring is off, rescore them. On nested
     * documents, the k are parents, each represented by its best child or, expanded, by all its
     * children, each scored with its float vector (or, codes only, the codes' float-arithmetic estimate).
     */
    ExplainedVectorQuery nearest(int k, Integer numCandidates, RescoreOptions rescore, boolean expandNestedDocs) {
        int beam = numCandidates == null
                ? (config.encoding() == VectorEncoding.FLOAT ? CompressedKnnQueryBuilder.DEFAULT_NUM_CANDIDATES : k)
                : numCandidates;
        float beamFactor = Math.max(1f, (float) beam / k);
        ParentJoin join = parents == null ? null : new ParentJoin(parents, expandNestedDocs);
        String search = join == null
                ? "the top k=" + k + " of the graph search"
                : "the top k=" + k + " parents of the graph search, "
                        + (expandNestedDocs ? "with all their nested documents" : "each by its best nested document");
        if (config.encoding() == VectorEncoding.FLOAT) {
            // float scores are exact already: the beam only widens the graph search
            return explained(
                    RescoringKnnQuery.exactFloat(field, target, k, beamFactor, filter, join),
                    ScoreOrigin.Method.EXACT_FLOAT,
                    search);
        }
        RescoreOptions options = rescore != null ? rescore : RescoreOptions.DEFAULT;
        float oversample = cappedOversample(k, Math.max(options.oversampleFactor(), beamFactor));
        // expanding scores every child of the chosen parents with the rescorer, as rescoring does
        boolean rescored = options.enabled() || expandNestedDocs;
        ScoreOrigin.Method method = rescored == false
                ? ScoreOrigin.Method.CODE_ESTIMATE
                : config.rescoreVectors()
                        ? ScoreOrigin.Method.RESCORED_FLOAT
                        : ScoreOrigin.Method.CODE_ESTIMATE_RESCORED;
        return explained(new RescoringKnnQuery(field, target, k, oversample, filter, rescored, join), method, search);
    }

    /**
     * Every document scoring at least {@code minScore}, scored exactly with its float vector. Callers
     * check that the field keeps float vectors ({@link VectorFieldConfig#keepsFloats()}).
     */
    ExplainedVectorQuery within(float minScore, String threshold) {
        Query radial = new SimilarityThresholdQuery(field, target, minScore);
        if (filter != null) {
            radial = new BooleanQuery.Builder()
                    .add(radial, BooleanClause.Occur.MUST)
                    .add(filter, BooleanClause.Occur.FILTER)
                    .build();
        }
        ScoreOrigin.Method method = config.encoding() == VectorEncoding.FLOAT
                ? ScoreOrigin.Method.EXACT_FLOAT
                : ScoreOrigin.Method.STORED_FLOAT;
        return explained(radial, method, "radial search: every document with " + threshold);
    }

    private ExplainedVectorQuery explained(Query query, ScoreOrigin.Method method, String search) {
        VectorSimilarity similarity = config.similarity();
        return new ExplainedVectorQuery(
                query, new ScoreOrigin(field, similarity, method, config.dimension(), kept, search), filter);
    }

    /**
     * {@code requested}, lowered so that {@code ceil(k * oversample)} stays within {@link CompressedKnnQueryBuilder#MAX_K}
     * candidates per segment (the k-NN plugin caps its first pass the same way): k = 10,000 with
     * {@code oversample_factor} 100 would otherwise walk and hold a million candidates per segment.
     */
    static float cappedOversample(int k, float requested) {
        if (Math.ceil(k * (double) requested) <= CompressedKnnQueryBuilder.MAX_K) {
            return requested;
        }
        // nextDown: a quotient rounded up to the next float could make ceil(k * oversample) exceed the cap
        return Math.max(1f, Math.nextDown((float) ((double) CompressedKnnQueryBuilder.MAX_K / k)));
    }
}
