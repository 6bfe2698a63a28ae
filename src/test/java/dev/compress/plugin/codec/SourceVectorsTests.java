package dev.compress.plugin.codec;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.lucene.util.BytesRef;
import org.opensearch.common.xcontent.XContentHelper;
import org.opensearch.common.xcontent.XContentType;
import org.opensearch.core.common.bytes.BytesArray;
import org.opensearch.core.common.bytes.BytesReference;
import org.opensearch.core.xcontent.MediaTypeRegistry;
import org.opensearch.core.xcontent.XContentBuilder;
import org.opensearch.test.OpenSearchTestCase;

/** Vectors leave a stored source and come back as they were, in each content type, and only where they left. */
public class SourceVectorsTests extends OpenSearchTestCase {

    private static final float[] V = {0.1f, -2.5f, 1.0E-7f, 3.4028235E38f};
    private static final float[] W = {1f, 2f};

    public void testStripsAndRestoresTopLevelObjectAndDottedPaths() throws IOException {
        for (XContentType type : List.of(XContentType.JSON, XContentType.SMILE, XContentType.CBOR, XContentType.YAML)) {
            XContentBuilder doc = XContentBuilder.builder(type.xContent())
                    .startObject()
                    .field("title", "a")
                    .array("v", V)
                    .startObject("obj")
                    .array("w", W)
                    .field("n", 7)
                    .endObject()
                    .array("x.y", V)
                    .array("kept", V)
                    .endObject();
            BytesRef source = BytesReference.bytes(doc).toBytesRef();
            Set<String> fields = Set.of("v", "obj.w", "x.y");

            SourceVectors.Stripped stripped = SourceVectors.strip(source, fields);

            assertEquals(type.toString(), fields, stripped.fields());
            assertTrue(type + " shrinks", stripped.source().length < source.length);
            Map<String, Object> strippedMap = map(stripped.source());
            assertEquals(SourceVectors.PLACEHOLDER, strippedMap.get("v"));
            assertEquals(SourceVectors.PLACEHOLDER, ((Map<?, ?>) strippedMap.get("obj")).get("w"));
            assertEquals(SourceVectors.PLACEHOLDER, strippedMap.get("x.y"));
            assertVector(V, strippedMap.get("kept"));

            BytesRef restored = SourceVectors.restore(stripped.source(), fields, f -> f.equals("obj.w") ? W : V);
            assertEquals(type, MediaTypeRegistry.xContentType(new BytesArray(restored)));
            Map<String, Object> back = map(restored);
            assertEquals(List.of("title", "v", "obj", "x.y", "kept"), List.copyOf(back.keySet()));
            assertVector(V, back.get("v"));
            assertVector(W, ((Map<?, ?>) back.get("obj")).get("w"));
            assertEquals(7, ((Map<?, ?>) back.get("obj")).get("n"));
            assertVector(V, back.get("x.y"));
            assertEquals(map(source), back);
        }
    }

    public void testLeavesSourcesWithoutVectorsAlone() throws IOException {
        BytesRef noVector = json("{\"title\":\"a\",\"v\":null,\"w\":[1,2]}");
        assertNull(SourceVectors.strip(noVector, Set.of("v")));
        assertNull(SourceVectors.strip(noVector, Set.of()));
        assertSame(noVector, SourceVectors.restore(noVector, Set.of("v"), f -> V));
    }

    /** A vector the user's own source filtering removed has no placeholder, and is not put back. */
    public void testRestoresOnlyWhereAVectorWasTakenOut() throws IOException {
        BytesRef filtered = json("{\"title\":\"a\"}");
        assertSame(filtered, SourceVectors.restore(filtered, Set.of("v"), f -> V));
        BytesRef withArray = json("{\"v\":[5.0,6.0]}");
        assertSame(withArray, SourceVectors.restore(withArray, Set.of("v"), f -> V));
    }

    public void testAPlaceholderWithoutAVectorReadsAsNull() throws IOException {
        BytesRef restored = SourceVectors.restore(json("{\"v\":0,\"t\":1}"), Set.of("v"), f -> null);
        Map<String, Object> back = map(restored);
        assertTrue(back.containsKey("v"));
        assertNull(back.get("v"));
        assertEquals(1, back.get("t"));
    }

    private static BytesRef json(String s) {
        return new BytesRef(s);
    }

    private static Map<String, Object> map(BytesRef bytes) {
        return XContentHelper.convertToMap(new BytesArray(bytes), true).v2();
    }

    private static void assertVector(float[] expected, Object actual) {
        List<?> values = (List<?>) actual;
        assertEquals(expected.length, values.size());
        for (int i = 0; i < expected.length; i++) {
            assertEquals(expected[i], ((Number) values.get(i)).floatValue(), 0f);
        }
    }
}
