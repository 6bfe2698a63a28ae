package dev.compress.bench;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.Test;

/** The equal-recall read-out of a sweep: cheapest first, stop at the first value reaching the level. */
public class RecallSweepTests {

    @Test
    public void stopsAtTheFirstValueReachingTheLevel() throws Exception {
        List<Integer> measured = new ArrayList<>();
        List<Map<String, Object>> rows = new ArrayList<>();
        Map<String, Object> hit = RecallSweep.untilReached(
                List.of(10, 20, 40, 80),
                0.95,
                p -> {
                    measured.add(p);
                    return Map.of("ef", p, RecallSweep.RECALL, p / 40.0 * 0.96);
                },
                rows);
        assertEquals(40, hit.get("ef"));
        assertEquals(List.of(10, 20, 40), measured);
        assertEquals(3, rows.size());
    }

    @Test
    public void nullWhenNoValueReachesTheLevel() throws Exception {
        List<Map<String, Object>> rows = new ArrayList<>();
        assertNull(RecallSweep.untilReached(List.of(1, 2), 0.95, p -> Map.of(RecallSweep.RECALL, 0.5), rows));
        assertEquals(2, rows.size());
    }

    @Test
    public void firstReachingKeepsTheRowsOrderAndFilter() {
        List<Map<String, Object>> rows = List.of(
                Map.of("index", "a", RecallSweep.RECALL, 0.99),
                Map.of("index", "b", RecallSweep.RECALL, 0.90),
                Map.of("index", "b", RecallSweep.RECALL, 0.96),
                Map.of("index", "b", RecallSweep.RECALL, 0.98));
        assertEquals(
                0.96,
                RecallSweep.firstReaching(rows, r -> r.get("index").equals("b"), 0.95)
                        .get(RecallSweep.RECALL));
        assertNull(RecallSweep.firstReaching(rows, r -> r.get("index").equals("c"), 0.95));
    }

    @Test
    public void ratioIsNaNWhenARowIsMissing() {
        assertTrue(Double.isNaN(RecallSweep.ratio(null, Map.of("q", 1.0), "q")));
        assertEquals(2.0, RecallSweep.ratio(Map.of("q", 4.0), Map.of("q", 2.0), "q"), 0);
    }
}
