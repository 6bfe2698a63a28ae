package dev.compress.plugin.train;

import dev.compress.training.data.Qrels;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.opensearch.core.action.ActionListener;
import org.opensearch.transport.client.Client;

/**
 * A judgment list of the Search Relevance Workbench, as its plugin stores it in
 * {@value #INDEX}: one document per list, {@code judgmentRatings: [{query, ratings: [{docId, rating}]}]}.
 * Queries are named by their text, so the queries index must hold that text in its id field.
 * Ratings are floats, rounded to whole grades ({@link Grades}).
 */
final class SrwJudgmentList {

    static final String INDEX = "search-relevance-judgment";

    private SrwJudgmentList() {}

    /** Reads list {@code listId}; fails naming the id when there is none. */
    static void read(Client client, String listId, ActionListener<Qrels> listener) {
        client.prepareGet(INDEX, listId)
                .execute(ActionListener.wrap(
                        got -> {
                            if (got.isExists() == false) {
                                listener.onFailure(
                                        new IllegalArgumentException("[judgments.srw_judgment_id] judgment list ["
                                                + listId + "] does not exist in [" + INDEX + "]"));
                                return;
                            }
                            listener.onResponse(parse(listId, got.getSourceAsMap()));
                        },
                        listener::onFailure));
    }

    /**
     * The list's ratings as qrels keyed by query text and document id; entries that are not well formed are skipped,
     * a grade above {@link Grades#HIGHEST} fails naming the list, the query and the document.
     */
    static Qrels parse(String listId, Map<String, Object> source) {
        Map<String, Map<String, Integer>> byQuery = new HashMap<>();
        if (source.get("judgmentRatings") instanceof List<?> entries) {
            for (Object entry : entries) {
                if (entry instanceof Map<?, ?> e
                        && e.get("query") instanceof String query
                        && e.get("ratings") instanceof List<?> ratings) {
                    for (Object r : ratings) {
                        if (r instanceof Map<?, ?> rating && rating.get("docId") != null) {
                            Integer grade;
                            try {
                                grade = Grades.wholeGrade(rating.get("rating"));
                            } catch (IllegalArgumentException tooHigh) {
                                throw new IllegalArgumentException("[judgments.srw_judgment_id] judgment list ["
                                        + listId + "], query [" + query + "], document [" + rating.get("docId")
                                        + "]: " + tooHigh.getMessage());
                            }
                            if (grade != null) {
                                byQuery.computeIfAbsent(query, q -> new HashMap<>())
                                        .put(String.valueOf(rating.get("docId")), grade);
                            }
                        }
                    }
                }
            }
        }
        return new Qrels(byQuery);
    }

    static boolean hasRelevant(Qrels list) {
        return list.queryIds().stream()
                .anyMatch(q -> list.judgments(q).values().stream().anyMatch(r -> r > 0));
    }
}
