package dev.compress.plugin.warmup;

import java.io.IOException;
import java.util.List;
import org.opensearch.common.io.stream.BytesStreamOutput;
import org.opensearch.test.OpenSearchTestCase;

/**
 * Warmup's request, shard result and response survive the wire: the number of searches goes to
 * every node, and the searches run come back with the files read.
 */
public class WarmupWireTests extends OpenSearchTestCase {

    public void testRequestCarriesSearches() throws IOException {
        WarmupRequest original = new WarmupRequest("a", "b").searches(37);
        BytesStreamOutput out = new BytesStreamOutput();
        original.writeTo(out);
        WarmupRequest copy = new WarmupRequest(out.bytes().streamInput());
        assertArrayEquals(new String[] {"a", "b"}, copy.indices());
        assertEquals(37, copy.searches());
        assertEquals(WarmupRequest.DEFAULT_SEARCHES, new WarmupRequest("a").searches());
        assertNull(new WarmupRequest("a").searches(0).validate());
        assertNotNull(new WarmupRequest("a").searches(-1).validate());
        assertNotNull(
                new WarmupRequest("a").searches(WarmupRequest.MAX_SEARCHES + 1).validate());
    }

    public void testShardResultAndResponseCarrySearches() throws IOException {
        WarmedShard shard = new WarmedShard(3, 4096, 250);
        BytesStreamOutput out = new BytesStreamOutput();
        shard.writeTo(out);
        assertEquals(shard, new WarmedShard(out.bytes().streamInput()));
        assertEquals(new WarmedShard(5, 5000, 251), shard.plus(new WarmedShard(2, 904, 1)));

        WarmupResponse response = new WarmupResponse(2, 2, 0, List.of(), 6, 8192, 500);
        out = new BytesStreamOutput();
        response.writeTo(out);
        WarmupResponse copy = new WarmupResponse(out.bytes().streamInput());
        assertEquals(6, copy.files());
        assertEquals(8192, copy.bytes());
        assertEquals(500, copy.searches());
        assertEquals(2, copy.getSuccessfulShards());
    }
}
