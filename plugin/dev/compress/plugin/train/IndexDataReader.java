package dev.compress.plugin.train;

import dev.compress.plugin.mapper.VectorSimilarity;
import dev.compress.training.data.Qrels;
import dev.compress.training.data.VectorSet;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.opensearch.action.search.SearchRequest;
import org.opensearch.action.support.PlainActionFuture;
import org.opensearch.common.unit.TimeValue;
import org.opensearch.search.SearchHit;
import org.opensearch.search.builder.SearchSourceBuilder;
import org.opensearch.search.sort.SortOrder;
import org.opensearch.transport.client.Client;

/**
 * Reads training inputs from ordinary indices page by page, so no response holds more than one
 * page. Blocking: it runs on the training thread pool, never on a transport thread.
 */
final class IndexDataReader {

    private static final int PAGE = 1000;
    private static final TimeValue PAGE_TIMEOUT = TimeValue.timeValueMinutes(2);

    private final Client client;

    IndexDataReader(Client client) {
        this.client = client;
    }

    /** Receives each vector read, with its id: null for a document without the id field it is keyed by. */
    @FunctionalInterface
    interface VectorConsumer<E extends Exception> {
        void accept(String id, float[] vector) throws E;
    }

    /** The id field that names a document's own {@code _id}, which is not in {@code _source}. */
    static final String ID = "_id";

    /**
     * The query vectors, and how many query documents had a vector but not the id field they are keyed by (a stray
     * document in the queries index: no judgment can name it).
     */
    record QueryVectors(VectorSet vectors, long withoutId) {}

    /** Query vectors on the heap, keyed by {@code idField}, or by each document's own {@code _id} when it is {@link #ID}. */
    QueryVectors queries(String index, String idField, String vectorField, int dim) {
        List<String> ids = new ArrayList<>();
        List<float[]> rows = new ArrayList<>();
        long[] withoutId = new long[1];
        vectors(index, idField, vectorField, dim, (id, vector) -> {
            if (id == null) {
                withoutId[0]++;
            } else {
                ids.add(id);
                rows.add(vector);
            }
        });
        return new QueryVectors(VectorSet.ofRows(ids, rows.toArray(new float[0][])), withoutId[0]);
    }

    /**
     * Hands each vector of an index to {@code into} as it is read, in {@code _id} order, keyed by {@code idField},
     * or by each document's own {@code _id} when it is {@link #ID}; documents without a vector are skipped.
     */
    <E extends Exception> void vectors(
            String index, String idField, String vectorField, int dim, VectorConsumer<E> into) throws E {
        boolean ownId = ID.equals(idField);
        scan(index, ownId ? new String[] {vectorField} : new String[] {idField, vectorField}, hit -> {
            Object raw = extract(hit.getSourceAsMap(), vectorField);
            if (raw instanceof List<?> list) {
                if (list.size() != dim) {
                    throw new IllegalArgumentException("document [" + hit.getId() + "] of [" + index + "] has "
                            + list.size() + " values in [" + vectorField + "], expected " + dim);
                }
                float[] v = new float[dim];
                for (int i = 0; i < dim; i++) {
                    Object value = list.get(i);
                    v[i] = value instanceof Number n ? n.floatValue() : Float.NaN;
                    if (Float.isFinite(v[i]) == false) {
                        throw new IllegalArgumentException("document [" + hit.getId() + "] of [" + index + "] has ["
                                + value + "] at position " + i + " of [" + vectorField + "], "
                                + (value instanceof Number ? "not a finite float" : "not a number"));
                    }
                }
                // what the trained model will be asked to score must stay within float's range too
                VectorSimilarity.checkLength(
                        "document [" + hit.getId() + "] of [" + index + "]: [" + vectorField + "]",
                        VectorSimilarity.squaredLength(v));
                Object id = ownId ? hit.getId() : extract(hit.getSourceAsMap(), idField);
                into.accept(id == null ? null : String.valueOf(id), v);
            }
        });
    }

    /** Documents in an index, with or without a vector. */
    long count(String index) {
        return client.prepareSearch(index)
                .setSize(0)
                .setTrackTotalHits(true)
                .get(PAGE_TIMEOUT)
                .getHits()
                .getTotalHits()
                .value();
    }

    /**
     * The judgment rows, read in one pass: every readable row's pair, and with a split field those marked
     * {@code train} and those marked {@code test}.
     *
     * @param all        every readable row's pair
     * @param train      the pairs of rows marked {@code train} (empty without a split field)
     * @param test       the pairs of rows marked {@code test} (empty without a split field)
     * @param unreadable rows without a query, a document or a rating that reads as a number
     */
    record JudgmentRows(Qrels all, Qrels train, Qrels test, long unreadable) {}

    /**
     * Judgments as qrels; a pair judged more than once keeps its highest grade. Queries, and each query's
     * documents, come in the order of their ids: the pages arrive in the order of the judgment documents' own
     * {@code _id}s, which a bulk load without ids draws at random, and training samples in the qrels' order, so
     * the same judgments and seed would otherwise train a different model each time they are loaded.
     */
    JudgmentRows judgments(TrainSpec spec) {
        if (spec.srwJudgments()) {
            PlainActionFuture<Qrels> list = new PlainActionFuture<>();
            SrwJudgmentList.read(client, spec.srwJudgmentId(), list);
            return new JudgmentRows(list.actionGet(PAGE_TIMEOUT), new Qrels(Map.of()), new Qrels(Map.of()), 0);
        }
        Map<String, Map<String, Integer>> all = new TreeMap<>();
        Map<String, Map<String, Integer>> train = new TreeMap<>();
        Map<String, Map<String, Integer>> test = new TreeMap<>();
        long[] unreadable = new long[1];
        String splitField = spec.split().field();
        List<String> fields = new ArrayList<>(
                List.of(spec.judgmentsQueryField(), spec.judgmentsDocField(), spec.judgmentsRatingField()));
        if (splitField != null) {
            fields.add(splitField);
        }
        scan(spec.judgmentsIndex(), fields.toArray(new String[0]), hit -> {
            Map<String, Object> source = hit.getSourceAsMap();
            Object query = extract(source, spec.judgmentsQueryField());
            Object doc = extract(source, spec.judgmentsDocField());
            Integer rating = Grades.wholeGrade(extract(source, spec.judgmentsRatingField()));
            if (query == null || doc == null || rating == null) {
                unreadable[0]++;
                return;
            }
            add(all, query, doc, rating);
            if (splitField != null) {
                String split = String.valueOf(extract(source, splitField));
                if (split.equals("train")) {
                    add(train, query, doc, rating);
                } else if (split.equals("test")) {
                    add(test, query, doc, rating);
                }
            }
        });
        return new JudgmentRows(new Qrels(all), new Qrels(train), new Qrels(test), unreadable[0]);
    }

    /** A pair judged more than once counts with its highest grade, whatever order the rows are read in. */
    private static void add(Map<String, Map<String, Integer>> byQuery, Object query, Object doc, int rating) {
        byQuery.computeIfAbsent(String.valueOf(query), q -> new TreeMap<>())
                .merge(String.valueOf(doc), rating, Math::max);
    }

    /**
     * Pages through an index with {@code search_after} on {@code _id}: each page is an independent
     * search, so nothing stays open between pages, and no scroll context can be lost or left to
     * expire under a long job. Each page has a timeout, so a stuck read fails the job instead.
     */
    private <E extends Exception> void scan(String index, String[] fields, HitConsumer<E> consumer) throws E {
        Object[] after = null;
        while (true) {
            SearchSourceBuilder source = new SearchSourceBuilder()
                    .size(PAGE)
                    .fetchSource(fields, null)
                    .sort("_id", SortOrder.ASC);
            if (after != null) {
                source.searchAfter(after);
            }
            SearchHit[] hits = client.search(new SearchRequest(index).source(source))
                    .actionGet(PAGE_TIMEOUT)
                    .getHits()
                    .getHits();
            if (hits.length == 0) {
                return;
            }
            for (SearchHit hit : hits) {
                consumer.accept(hit);
            }
            after = hits[hits.length - 1].getSortValues();
        }
    }

    @FunctionalInterface
    private interface HitConsumer<E extends Exception> {
        void accept(SearchHit hit) throws E;
    }

    @SuppressWarnings("unchecked")
    private static Object extract(Map<String, Object> source, String path) {
        Object node = source;
        for (String part : path.split("\\.")) {
            if (node instanceof Map<?, ?> == false) {
                return null;
            }
            node = ((Map<String, Object>) node).get(part);
        }
        return node;
    }
}
