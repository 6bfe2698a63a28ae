package dev.compress.plugin.query.mask;

import dev.compress.training.mask.DimensionMasks;

import org.opensearch.action.IndicesRequest;
import org.opensearch.action.search.SearchRequest;
import org.opensearch.action.search.SearchResponse;
import org.opensearch.common.xcontent.support.XContentMapValues;
import org.opensearch.core.action.ActionListener;
import org.opensearch.index.query.QueryBuilder;
import org.opensearch.index.query.QueryBuilders;
import org.opensearch.search.SearchHit;
import org.opensearch.search.builder.SearchSourceBuilder;
import org.opensearch.transport.client.Client;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A pseudo-relevance-feedback mask ({@code dime_prf}, {@code eclipse_prf}) from a first-pass search:
 * the unmasked query's hits on the same indices (ids only), then the vectors of the feedback
 * documents from their {@code _source}. {@code dime_prf} takes the top {@code feedback_docs};
 * {@code eclipse_prf} those as relevant and the last {@code negative_docs} of the top
 * {@code negative_depth} as irrelevant (as {@code MaskEvaluation} does offline). With no first-pass
 * hit there is nothing to learn from and every dimension is kept; with too few for negatives,
 * Eclipse falls back to DIME.
 */
public final class FeedbackMask {

    private FeedbackMask() {}

    /**
     * @param request   the search request whose indices the first pass searches
     * @param firstPass the unmasked {@code compressed_knn} query, asking for at least {@link #depth} hits per shard
     */
    public static void compute(
        Client client,
        IndicesRequest request,
        String field,
        QueryBuilder firstPass,
        MaskSpec mask,
        float[] vector,
        ActionListener<int[]> listener
    ) {
        SearchRequest ranking = new SearchRequest(request.indices()).indicesOptions(request.indicesOptions())
            .source(new SearchSourceBuilder().query(firstPass).size(depth(mask)).fetchSource(false).trackTotalHits(false));
        client.search(ranking, ActionListener.wrap(response -> {
            SearchHit[] hits = response.getHits().getHits();
            if (hits.length == 0) {
                boolean[] all = new boolean[vector.length];
                Arrays.fill(all, true);
                listener.onResponse(MaskSpec.explicit(all).kept());
                return;
            }
            List<SearchHit> positives = Arrays.asList(hits).subList(0, Math.min(mask.feedbackDocs(), hits.length));
            List<SearchHit> negatives = mask.type() == MaskType.ECLIPSE_PRF
                ? Arrays.asList(hits).subList(Math.max(mask.feedbackDocs(), hits.length - mask.negativeDocs()), hits.length)
                : List.of();
            fetchVectors(client, request, field, positives, negatives, ActionListener.wrap(vectors -> {
                float[][] p = vectors.subList(0, positives.size()).toArray(float[][]::new);
                float[][] n = vectors.subList(positives.size(), vectors.size()).toArray(float[][]::new);
                int k = mask.keep(vector.length);
                boolean[] kept = n.length == 0 ? DimensionMasks.dimePrf(vector, p, k) : DimensionMasks.eclipsePrf(vector, p, n, k);
                listener.onResponse(MaskSpec.explicit(kept).kept());
            }, listener::onFailure));
        }, listener::onFailure));
    }

    /** Hits the first pass needs: the feedback documents, or the whole list whose tail gives Eclipse's negatives. */
    public static int depth(MaskSpec mask) {
        return mask.type() == MaskType.ECLIPSE_PRF ? mask.negativeDepth() : mask.feedbackDocs();
    }

    /** The field's vectors of {@code positives} then {@code negatives}, in order, read from {@code _source}. */
    private static void fetchVectors(
        Client client,
        IndicesRequest request,
        String field,
        List<SearchHit> positives,
        List<SearchHit> negatives,
        ActionListener<List<float[]>> listener
    ) {
        List<SearchHit> wanted = new ArrayList<>(positives);
        wanted.addAll(negatives);
        Set<String> indices = new LinkedHashSet<>();
        Set<String> ids = new LinkedHashSet<>();
        for (SearchHit hit : wanted) {
            indices.add(hit.getIndex());
            ids.add(hit.getId());
        }
        SearchRequest fetch = new SearchRequest(indices.toArray(String[]::new)).indicesOptions(request.indicesOptions())
            .source(
                new SearchSourceBuilder().query(QueryBuilders.idsQuery().addIds(ids.toArray(String[]::new)))
                    .size(wanted.size() * indices.size())
                    .fetchSource(new String[] { field }, null)
                    .trackTotalHits(false)
            );
        client.search(fetch, ActionListener.wrap((SearchResponse response) -> {
            Map<String, float[]> byKey = new HashMap<>();
            for (SearchHit hit : response.getHits().getHits()) {
                byKey.put(key(hit), vectorOf(hit, field));
            }
            List<float[]> vectors = new ArrayList<>();
            for (SearchHit hit : wanted) {
                float[] v = byKey.get(key(hit));
                if (v == null) {
                    throw new IllegalArgumentException(
                        "[mask] feedback document [" + hit.getId() + "] of index [" + hit.getIndex() + "] has no [" + field + "] in its _source"
                    );
                }
                vectors.add(v);
            }
            listener.onResponse(vectors);
        }, listener::onFailure));
    }

    private static String key(SearchHit hit) {
        return hit.getIndex() + "\u0000" + hit.getId();
    }

    private static float[] vectorOf(SearchHit hit, String field) {
        Object value = hit.hasSource() ? XContentMapValues.extractValue(field, hit.getSourceAsMap()) : null;
        if (!(value instanceof List<?> list)) {
            return null;
        }
        float[] vector = new float[list.size()];
        for (int i = 0; i < vector.length; i++) {
            if (!(list.get(i) instanceof Number number)) {
                return null;
            }
            vector[i] = number.floatValue();
        }
        return vector;
    }
}
