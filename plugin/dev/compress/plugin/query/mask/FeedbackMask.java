package dev.compress.plugin.query.mask;

import dev.compress.training.mask.DimensionMasks;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.apache.lucene.search.join.ScoreMode;
import org.opensearch.ExceptionsHelper;
import org.opensearch.OpenSearchStatusException;
import org.opensearch.action.IndicesRequest;
import org.opensearch.action.get.MultiGetItemResponse;
import org.opensearch.action.get.MultiGetRequest;
import org.opensearch.action.search.SearchRequest;
import org.opensearch.action.search.ShardSearchFailure;
import org.opensearch.common.document.DocumentField;
import org.opensearch.common.xcontent.support.XContentMapValues;
import org.opensearch.core.action.ActionListener;
import org.opensearch.index.mapper.RoutingFieldMapper;
import org.opensearch.index.query.InnerHitBuilder;
import org.opensearch.index.query.QueryBuilder;
import org.opensearch.index.query.QueryBuilders;
import org.opensearch.search.SearchHit;
import org.opensearch.search.SearchHits;
import org.opensearch.search.builder.SearchSourceBuilder;
import org.opensearch.search.fetch.subphase.FetchSourceContext;
import org.opensearch.transport.client.Client;

/**
 * A pseudo-relevance-feedback mask ({@code dime_prf}, {@code eclipse_prf}) from a first-pass search:
 * the unmasked query's hits on the same indices (ids only), then the vectors of the feedback
 * documents from their {@code _source}; for a field inside a {@code nested} object, a {@code nested} first pass
 * whose parents rank by their best chunk, and the vectors of those chunks ({@link FeedbackField}; through a field
 * alias, the vectors of the field it names). {@code dime_prf}
 * takes the top {@code feedback_docs};
 * {@code eclipse_prf} those as relevant and the last {@code negative_docs} of the top
 * {@code negative_depth} as irrelevant (as {@code MaskEvaluation} does offline, on unit
 * embeddings; here each feedback vector is brought to unit length). With no first-pass
 * hit there is nothing to learn from and every dimension is kept; with too few for negatives,
 * Eclipse falls back to DIME. A learned mask whose model reads feedback gets the vectors of the top
 * {@code feedbackDocs} documents (no negatives) from {@link #collect}.
 */
public final class FeedbackMask {

    /** The inner hits of a nested first pass: each parent's best chunk. */
    private static final String BEST_CHUNK = "compress_feedback";

    private FeedbackMask() {}

    /**
     * @param request   the search request whose indices the first pass searches
     * @param firstPass the unmasked {@code compressed_knn} query, asking for at least {@link #depth} hits per shard
     * @param listener  the kept dimensions
     */
    public static void compute(
            Client client,
            IndicesRequest request,
            String field,
            QueryBuilder firstPass,
            MaskSpec mask,
            float[] vector,
            ActionListener<int[]> listener) {
        int negatives = mask.type() == MaskType.ECLIPSE_PRF ? mask.negativeDocs() : 0;
        collect(
                client,
                request,
                field,
                firstPass,
                new Sets(mask.type().jsonName(), depth(mask), mask.feedbackDocs(), negatives),
                ActionListener.wrap(
                        feedback -> {
                            if (feedback.positives().length == 0) {
                                // no first-pass hit, or every feedback document was deleted since: nothing to
                                // learn from
                                listener.onResponse(allKept(vector.length));
                                return;
                            }
                            int k = mask.keep(vector.length);
                            boolean[] kept = feedback.negatives().length == 0
                                    ? DimensionMasks.dimePrf(vector, feedback.positives(), k)
                                    : DimensionMasks.eclipsePrf(vector, feedback.positives(), feedback.negatives(), k);
                            listener.onResponse(MaskSpec.explicit(kept).kept());
                        },
                        listener::onFailure));
    }

    /**
     * Which documents of the first pass are feedback: the top {@code positives} of a list of {@code depth} hits,
     * and the last {@code negatives} of it (none when 0; fewer when the list is short, none below the positives).
     *
     * @param mask the mask type errors name
     */
    public record Sets(String mask, int depth, int positives, int negatives) {}

    /**
     * The unit vectors of {@code sets}' documents of the first pass, in rank order; both lists empty when the first
     * pass found nothing.
     *
     * @param request   the search request whose indices the first pass searches
     * @param firstPass the unmasked {@code compressed_knn} query, asking for at least {@code sets.depth()} hits per shard
     */
    public static void collect(
            Client client,
            IndicesRequest request,
            String field,
            QueryBuilder firstPass,
            Sets sets,
            ActionListener<Feedback> listener) {
        FeedbackField.of(
                client,
                request,
                field,
                ActionListener.wrap(
                        where -> collect(client, request, where, firstPass, sets, listener), listener::onFailure));
    }

    /** {@link #collect} once the field's place in the mappings is known. */
    private static void collect(
            Client client,
            IndicesRequest request,
            FeedbackField where,
            QueryBuilder firstPass,
            Sets sets,
            ActionListener<Feedback> listener) {
        SearchRequest ranking = new SearchRequest(request.indices())
                .indicesOptions(request.indicesOptions())
                .source(new SearchSourceBuilder()
                        .query(where.nestedPath() == null ? firstPass : bestChunk(where.nestedPath(), firstPass))
                        .size(sets.depth())
                        .fetchSource(false)
                        .trackTotalHits(false));
        if (request instanceof SearchRequest search) {
            // the same shards as the search the mask is for
            ranking.routing(search.routing()).preference(search.preference());
        }
        client.search(
                ranking,
                ActionListener.wrap(
                        response -> {
                            if (response.getFailedShards() > 0) {
                                // a mask learnt from part of the ranking would differ from run to run without a word
                                ShardSearchFailure first = response.getShardFailures()[0];
                                throw new OpenSearchStatusException(
                                        "[mask] the first-pass search failed on " + response.getFailedShards() + " of "
                                                + response.getTotalShards() + " shards: " + first.reason(),
                                        first.status());
                            }
                            SearchHit[] hits = response.getHits().getHits();
                            for (SearchHit hit : hits) {
                                if (hit.getClusterAlias() != null) {
                                    throw new IllegalArgumentException("[mask] type [" + sets.mask()
                                            + "] cannot read feedback vectors from remote cluster ["
                                            + hit.getClusterAlias() + "]");
                                }
                            }
                            List<SearchHit> positives =
                                    Arrays.asList(hits).subList(0, Math.min(sets.positives(), hits.length));
                            List<SearchHit> negatives = sets.negatives() == 0
                                    ? List.of()
                                    : Arrays.asList(hits)
                                            .subList(
                                                    Math.min(
                                                            hits.length,
                                                            Math.max(sets.positives(), hits.length - sets.negatives())),
                                                    hits.length);
                            if (positives.isEmpty()) {
                                listener.onResponse(new Feedback(new float[0][], new float[0][]));
                                return;
                            }
                            if (where.nestedPath() == null) {
                                fetchVectors(client, where, positives, negatives, listener);
                            } else {
                                listener.onResponse(
                                        new Feedback(bestChunks(positives, where), bestChunks(negatives, where)));
                            }
                        },
                        listener::onFailure));
    }

    /**
     * The first pass for a field inside nested object {@code path}: parents ranked by their best chunk, as a
     * {@code nested} query ranks them, with that chunk's own source as the one inner hit.
     */
    private static QueryBuilder bestChunk(String path, QueryBuilder firstPass) {
        // ignore_unmapped: an index that does not map the path has no chunk to give, as FeedbackField skips it
        return QueryBuilders.nestedQuery(path, firstPass, ScoreMode.Max)
                .ignoreUnmapped(true)
                .innerHit(new InnerHitBuilder(BEST_CHUNK)
                        .setSize(1)
                        .setFetchSourceContext(FetchSourceContext.FETCH_SOURCE));
    }

    /** The unit vectors of the best chunks of {@code hits}, of the field {@code where} places in each chunk. */
    private static float[][] bestChunks(List<SearchHit> hits, FeedbackField where) {
        List<float[]> vectors = new ArrayList<>();
        for (SearchHit hit : hits) {
            SearchHits chunks =
                    hit.getInnerHits() == null ? null : hit.getInnerHits().get(BEST_CHUNK);
            if (chunks == null || chunks.getHits().length == 0) {
                continue; // matched through no chunk of the field
            }
            String inner = where.chunkField(hit.getIndex());
            float[] v = vectorOf(chunks.getAt(0).getSourceAsMap(), inner);
            if (v == null) {
                throw new IllegalArgumentException("[mask] feedback document [" + hit.getId() + "] of index ["
                        + hit.getIndex() + "] has no [" + inner + "] in the source of its chunk at offset "
                        + chunks.getAt(0).getNestedIdentity().getOffset());
            }
            vectors.add(v);
        }
        return vectors.toArray(float[][]::new);
    }

    /** Every dimension of a {@code dim}-dimensional query: the mask when there is nothing to learn from. */
    static int[] allKept(int dim) {
        return IntStream.range(0, dim).toArray();
    }

    /** Hits the first pass needs: the feedback documents, or the whole list whose tail gives Eclipse's negatives. */
    public static int depth(MaskSpec mask) {
        return mask.type() == MaskType.ECLIPSE_PRF ? mask.negativeDepth() : mask.feedbackDocs();
    }

    /**
     * The field's vectors of {@code positives} then {@code negatives}, in order, read from
     * {@code _source} by multi-get. A document deleted since the first pass is left out of its list.
     */
    private static void fetchVectors(
            Client client,
            FeedbackField where,
            List<SearchHit> positives,
            List<SearchHit> negatives,
            ActionListener<Feedback> listener) {
        List<SearchHit> wanted = new ArrayList<>(positives);
        wanted.addAll(negatives);
        MultiGetRequest fetch = new MultiGetRequest();
        for (SearchHit hit : wanted) {
            DocumentField routing = hit.field(RoutingFieldMapper.NAME);
            String sourceField = where.sourceField(hit.getIndex());
            fetch.add(new MultiGetRequest.Item(hit.getIndex(), hit.getId())
                    .fetchSourceContext(new FetchSourceContext(true, new String[] {sourceField}, null))
                    .routing(routing == null ? null : routing.getValue().toString()));
        }
        client.multiGet(
                fetch,
                ActionListener.wrap(
                        response -> {
                            List<float[]> p = new ArrayList<>();
                            List<float[]> n = new ArrayList<>();
                            MultiGetItemResponse[] items = response.getResponses();
                            for (int i = 0; i < items.length; i++) {
                                MultiGetItemResponse item = items[i];
                                if (item.isFailed()) {
                                    Exception cause = item.getFailure().getFailure();
                                    throw new OpenSearchStatusException(
                                            "[mask] reading feedback document [" + item.getId() + "] of index ["
                                                    + item.getIndex() + "] failed: " + cause.getMessage(),
                                            ExceptionsHelper.status(cause),
                                            cause);
                                }
                                if (item.getResponse().isExists() == false) {
                                    continue;
                                }
                                String sourceField = where.sourceField(item.getIndex());
                                float[] v = vectorOf(item.getResponse().getSourceAsMap(), sourceField);
                                if (v == null) {
                                    throw new IllegalArgumentException("[mask] feedback document [" + item.getId()
                                            + "] of index [" + item.getIndex() + "] has no [" + sourceField
                                            + "] in its _source");
                                }
                                (i < positives.size() ? p : n).add(v);
                            }
                            listener.onResponse(new Feedback(p.toArray(float[][]::new), n.toArray(float[][]::new)));
                        },
                        listener::onFailure));
    }

    /**
     * The document's vector at unit length, as a {@code cosine} field compares it (a
     * {@code dot_product} field holds unit vectors already, within the mapper's tolerance), so a
     * long document weighs no more in the feedback mean than the field's scores let it.
     */
    private static float[] vectorOf(Map<String, Object> source, String field) {
        Object value = source == null ? null : XContentMapValues.extractValue(field, source);
        if (!(value instanceof List<?> list)) {
            return null;
        }
        float[] vector = new float[list.size()];
        double squares = 0;
        for (int i = 0; i < vector.length; i++) {
            if (!(list.get(i) instanceof Number number)) {
                return null;
            }
            vector[i] = number.floatValue();
            squares += (double) vector[i] * vector[i];
        }
        double norm = Math.sqrt(squares); // in double: components near Float.MAX_VALUE overflow a float norm
        for (int i = 0; i < vector.length && norm > 0; i++) {
            vector[i] = (float) (vector[i] / norm);
        }
        return vector;
    }
}
