package dev.compress.plugin.ingest;

import dev.compress.plugin.stats.CompressCounters;
import java.util.HashMap;
import java.util.Map;
import org.opensearch.OpenSearchParseException;
import org.opensearch.test.OpenSearchTestCase;

/** What the REST tests do not see: the sub-batch size's default, and paths refused up front. */
public class CompressProcessorFactoryTests extends OpenSearchTestCase {

    private static CompressProcessor create(Map<String, Object> config) throws Exception {
        return (CompressProcessor) new CompressProcessorFactory(() -> null, new CompressCounters())
                .create(Map.of(), "tag", null, new HashMap<>(config));
    }

    public void testBatchSizeDefaultsToWholeEncoderBlocks() throws Exception {
        assertEquals(
                CompressProcessorFactory.DEFAULT_BATCH_SIZE,
                create(Map.of("field", "a", "target_field", "b", "truncate_to", 4))
                        .batchSize());
        assertEquals(
                5,
                create(Map.of("field", "a", "target_field", "b", "truncate_to", 4, "batch_size", 5))
                        .batchSize());
    }

    public void testPathsThatNoDocumentCanHoldAreRefused() throws Exception {
        for (String bad : new String[] {"", " ", "_source.", "_ingest.", "a..b", ".a", "a."}) {
            OpenSearchParseException e = expectThrows(
                    OpenSearchParseException.class,
                    () -> create(Map.of("field", bad, "target_field", "b", "truncate_to", 4)));
            assertEquals("[field] must be a field path, got [" + bad + "]", e.getMessage());
            e = expectThrows(
                    OpenSearchParseException.class,
                    () -> create(Map.of("field", "a", "target_field", bad, "truncate_to", 4)));
            assertEquals("[target_field] must be a field path, got [" + bad + "]", e.getMessage());
        }
        // the vector would become the id or routing as text, or vanish with the pipeline's own metadata
        for (String metadata : new String[] {"_id", "_routing", "_index", "_ingest.x"}) {
            OpenSearchParseException e = expectThrows(
                    OpenSearchParseException.class,
                    () -> create(Map.of("field", "a", "target_field", metadata, "truncate_to", 4)));
            assertEquals(
                    "[target_field] must be a field of the document's source, got the metadata field [" + metadata
                            + "]",
                    e.getMessage());
        }
        // reading from the pipeline's metadata stays possible
        assertNotNull(create(Map.of("field", "_ingest.a", "target_field", "b", "truncate_to", 4)));
        // nested and prefixed paths stay valid
        assertNotNull(create(Map.of("field", "_source.a.b", "target_field", "c.d", "truncate_to", 4)));
    }
}
