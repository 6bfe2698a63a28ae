package dev.compress.plugin.query;

import static org.junit.Assert.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.opensearch.action.search.SearchResponse;
import org.opensearch.search.SearchHit;

/** A search hit as id and score, for comparing a search's hits with the expected ones. */
public record Hit(String id, float score) {

    public static List<Hit> of(SearchResponse response) {
        List<Hit> hits = new ArrayList<>();
        for (SearchHit hit : response.getHits().getHits()) {
            hits.add(new Hit(hit.getId(), hit.getScore()));
        }
        return hits;
    }

    /** Same ids in the same order, and scores within {@code tolerance}. */
    public static void assertSameHits(List<Hit> expected, List<Hit> actual, float tolerance) {
        assertEquals(
                expected.stream().map(Hit::id).toList(),
                actual.stream().map(Hit::id).toList());
        for (int i = 0; i < expected.size(); i++) {
            assertEquals(expected.get(i).score(), actual.get(i).score(), tolerance);
        }
    }
}
