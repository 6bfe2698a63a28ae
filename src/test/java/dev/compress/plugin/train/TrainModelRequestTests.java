package dev.compress.plugin.train;

import java.util.Map;
import org.opensearch.test.OpenSearchTestCase;

/** Users' model ids are checked where their request enters; the request itself also carries generated ids. */
public class TrainModelRequestTests extends OpenSearchTestCase {

    public void testUsersIdsThatCollideWithChunksOrRoutesAreRefused() {
        assertEquals("must not be empty", TrainModelRequest.modelIdProblem(""));
        assertEquals("must not be blank", TrainModelRequest.modelIdProblem(" \t"));
        assertEquals("must not start with [_]", TrainModelRequest.modelIdProblem("_search"));
        assertEquals("must not contain [#]", TrainModelRequest.modelIdProblem("a#0"));
        assertEquals("must be at most 256 bytes", TrainModelRequest.modelIdProblem("é".repeat(129)));
        assertNull(TrainModelRequest.modelIdProblem("dive-64.v2"));
    }

    public void testAGeneratedIdStartingWithAnUnderscoreStillTravelsBetweenNodes() {
        // random base64 ids start with '_' once in 64; the node that runs the job must accept them
        assertNull(new TrainModelRequest("_Yk3b9Qv2RkS1xq7ZpT0wA", Map.of(), 384, 1L).validate());
    }

    public void testAPlacedRequestTravelsWithItsJobIdentity() throws java.io.IOException {
        TrainModelRequest placed =
                new TrainModelRequest("m", Map.of("method", "pca", "dimensions", 64), 384, 1_795_337_839_939L);
        org.opensearch.common.io.stream.BytesStreamOutput out = new org.opensearch.common.io.stream.BytesStreamOutput();
        placed.writeTo(out);
        TrainModelRequest read = new TrainModelRequest(out.bytes().streamInput());
        assertEquals("m", read.modelId());
        assertEquals(Map.of("method", "pca", "dimensions", 64), read.body());
        assertEquals(384, read.inputDim());
        assertEquals(1_795_337_839_939L, read.createdAtMillis());
    }
}
