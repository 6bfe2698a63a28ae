package dev.compress.codec.search;

import org.apache.lucene.tests.util.LuceneTestCase;

/** How many candidates a rescoring walk keeps: its beam and a few near misses per hit. */
public class TestCandidateKnnQuery extends LuceneTestCase {

    public void testTwiceTheBeamAtTheDefaultOversample() {
        for (int k : new int[] {1, 10, 100}) {
            assertEquals(2 * 3 * k, CandidateKnnQuery.rescoredCandidates(3 * k, k));
        }
    }

    public void testAWideBeamKeepsOnlyAFewNearMissesPerHit() {
        assertEquals(480 + 30, CandidateKnnQuery.rescoredCandidates(480, 10));
        assertEquals(10_000 + 300, CandidateKnnQuery.rescoredCandidates(10_000, 100));
    }

    public void testANarrowBeamKeepsMoreThanTwiceItsSize() {
        assertEquals(10 + 30, CandidateKnnQuery.rescoredCandidates(10, 10));
    }

    public void testNeverOverflows() {
        assertEquals(Integer.MAX_VALUE, CandidateKnnQuery.rescoredCandidates(Integer.MAX_VALUE - 1, 10_000));
    }
}
