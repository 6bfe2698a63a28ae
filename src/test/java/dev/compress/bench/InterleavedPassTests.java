package dev.compress.bench;

import static org.junit.Assert.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.junit.Test;

/** The order several indexes are timed in together: every query once per index per round, blocks rotating. */
public class InterleavedPassTests {

    @Test
    public void everyIndexAnswersEveryQueryOncePerRoundAfterAnUntimedRound() throws Exception {
        int indexes = 3;
        int queries = 2 * InterleavedPass.BLOCK + 7;
        int rounds = 2;
        int[][][] seen = new int[rounds + 1][indexes][queries];
        List<Integer> roundOrder = new ArrayList<>();
        InterleavedPass.run(indexes, queries, rounds, (i, q, round) -> {
            seen[round + 1][i][q]++;
            if (roundOrder.isEmpty() || roundOrder.get(roundOrder.size() - 1) != round) {
                roundOrder.add(round);
            }
        });
        assertEquals(List.of(-1, 0, 1), roundOrder);
        for (int[][] round : seen) {
            for (int[] index : round) {
                for (int count : index) {
                    assertEquals(1, count);
                }
            }
        }
    }

    @Test
    public void eachBlockGoesToEveryIndexWithTheFirstTurnRotating() throws Exception {
        int indexes = 3;
        int queries = 4 * InterleavedPass.BLOCK;
        List<Integer> firstOfBlock = new ArrayList<>();
        List<int[]> visits = new ArrayList<>();
        InterleavedPass.run(indexes, queries, 1, (i, q, round) -> visits.add(new int[] {i, q, round}));
        for (int v = 0; v < visits.size(); v += InterleavedPass.BLOCK) {
            int[] first = visits.get(v);
            for (int k = 1; k < InterleavedPass.BLOCK; k++) {
                int[] next = visits.get(v + k);
                assertEquals("a block stays with one index", first[0], next[0]);
                assertEquals("queries in order within a block", first[1] + k, next[1]);
            }
            if ((v / InterleavedPass.BLOCK) % indexes == 0) {
                firstOfBlock.add(first[0]);
            }
        }
        // four blocks in each of two rounds (the untimed one and one timed): the index going first moves on each time
        assertEquals(List.of(0, 1, 2, 0, 1, 2, 0, 1), firstOfBlock);
    }
}
