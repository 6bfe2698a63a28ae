package dev.compress.plugin.query;

import dev.compress.codec.search.RescoringKnnQuery;
import org.opensearch.test.OpenSearchTestCase;

/** {@code k x oversample_factor} never asks a segment for more than {@value CompressedKnnQueryBuilder#MAX_K} candidates. */
public class CandidateCapTests extends OpenSearchTestCase {

    private static int candidates(int k, float requested) {
        float oversample = ShardVectorQuery.cappedOversample(k, requested);
        return new RescoringKnnQuery("v", new float[] {1f}, k, oversample, null, true).candidatesPerSegment();
    }

    public void testEveryKWithTheLargestFactorStaysWithinTheCap() {
        for (int k = 1; k <= CompressedKnnQueryBuilder.MAX_K; k++) {
            int candidates = candidates(k, RescoreOptions.MAX_OVERSAMPLE);
            assertTrue("k=" + k + ": " + candidates, candidates <= CompressedKnnQueryBuilder.MAX_K);
            // the cap lowers the factor only as far as it must
            assertTrue(
                    "k=" + k + ": " + candidates, candidates >= Math.min(100 * k, CompressedKnnQueryBuilder.MAX_K - 1));
        }
    }

    public void testFactorsWithinTheCapAreKept() {
        assertEquals(3f, ShardVectorQuery.cappedOversample(10, 3f), 0f);
        assertEquals(100f, ShardVectorQuery.cappedOversample(100, 100f), 0f);
        assertEquals(CompressedKnnQueryBuilder.MAX_K, candidates(CompressedKnnQueryBuilder.MAX_K, 3f));
        assertEquals(30, candidates(10, 3f));
    }
}
