package dev.compress.plugin.info;

import dev.compress.training.engine.EngineStatus;
import java.io.IOException;
import java.util.List;
import org.opensearch.common.io.stream.BytesStreamOutput;
import org.opensearch.core.common.Strings;
import org.opensearch.core.xcontent.MediaTypeRegistry;
import org.opensearch.test.OpenSearchTestCase;

/** The info response survives the wire, and a failed engine shows its reason. */
public class InfoResponseTests extends OpenSearchTestCase {

    public void testWireRoundTrip() throws IOException {
        InfoResponse original = new InfoResponse(
                "n1",
                "1.2.3",
                "10.4.0",
                new EngineStatus(true, "PyTorch", "2.7.1", 1, List.of("cpu()", "gpu(0)"), "/tmp/djl", null));
        BytesStreamOutput out = new BytesStreamOutput();
        original.writeTo(out);
        InfoResponse copy = new InfoResponse(out.bytes().streamInput());
        assertEquals(original.engine(), copy.engine());
        assertEquals(original.pluginVersion(), copy.pluginVersion());
        assertEquals(original.luceneVersion(), copy.luceneVersion());
    }

    public void testFailedEngineReportsReason() throws IOException {
        InfoResponse response = new InfoResponse(
                "n1",
                "1.2.3",
                "10.4.0",
                new EngineStatus(
                        false, "PyTorch", null, 0, List.of(), "/tmp/djl", "UnsatisfiedLinkError: no libtorch"));
        String json = Strings.toString(MediaTypeRegistry.JSON, response);
        assertTrue(json, json.contains("\"loaded\":false"));
        assertTrue(json, json.contains("\"error\":\"UnsatisfiedLinkError: no libtorch\""));
        assertFalse(json, json.contains("\"version\""));
    }
}
