package dev.compress.plugin.ingest;

import org.opensearch.test.OpenSearchTestCase;

import java.util.HashMap;
import java.util.Map;

/** Defaults the REST tests do not see: the sub-batch size. */
public class CompressProcessorFactoryTests extends OpenSearchTestCase {

    private static CompressProcessor create(Map<String, Object> config) throws Exception {
        return (CompressProcessor) new CompressProcessorFactory(() -> null).create(Map.of(), "tag", null, new HashMap<>(config));
    }

    public void testBatchSizeDefaultsToWholeEncoderBlocks() throws Exception {
        assertEquals(
            CompressProcessorFactory.DEFAULT_BATCH_SIZE,
            create(Map.of("field", "a", "target_field", "b", "truncate_to", 4)).batchSize()
        );
        assertEquals(5, create(Map.of("field", "a", "target_field", "b", "truncate_to", 4, "batch_size", 5)).batchSize());
    }
}
