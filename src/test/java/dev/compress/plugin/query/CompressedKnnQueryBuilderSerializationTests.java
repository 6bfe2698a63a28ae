package dev.compress.plugin.query;

import org.opensearch.common.io.stream.BytesStreamOutput;
import org.opensearch.common.xcontent.json.JsonXContent;
import org.opensearch.core.common.io.stream.StreamInput;
import org.opensearch.core.xcontent.DeprecationHandler;
import org.opensearch.core.xcontent.NamedXContentRegistry;
import org.opensearch.core.xcontent.ToXContent;
import org.opensearch.core.xcontent.XContentBuilder;
import org.opensearch.core.xcontent.XContentParser;
import org.opensearch.test.OpenSearchTestCase;

import java.io.IOException;

/** {@code model_id} and {@code model_dimension} survive the wire and XContent. */
public class CompressedKnnQueryBuilderSerializationTests extends OpenSearchTestCase {

    private static CompressedKnnQueryBuilder withModel() {
        return new CompressedKnnQueryBuilder("emb", new float[] { 0.5f, -1f, 2f }, 5, 50, RescoreOptions.DEFAULT, null, false, "m-1", 8);
    }

    public void testWireRoundTrip() throws IOException {
        CompressedKnnQueryBuilder original = withModel();
        try (BytesStreamOutput out = new BytesStreamOutput()) {
            original.writeTo(out);
            try (StreamInput in = out.bytes().streamInput()) {
                CompressedKnnQueryBuilder read = new CompressedKnnQueryBuilder(in);
                assertEquals(original, read);
                assertEquals("m-1", read.modelId());
            }
        }
        assertNotEquals(original, new CompressedKnnQueryBuilder("emb", new float[] { 0.5f, -1f, 2f }, 5, 50, RescoreOptions.DEFAULT, null, false));
    }

    public void testXContentRoundTrip() throws IOException {
        CompressedKnnQueryBuilder original = withModel();
        XContentBuilder builder = JsonXContent.contentBuilder();
        original.toXContent(builder, ToXContent.EMPTY_PARAMS);
        String json = builder.toString();
        assertTrue(json, json.contains("\"model_id\":\"m-1\"") && json.contains("\"model_dimension\":8"));
        try (XContentParser parser = JsonXContent.jsonXContent.createParser(NamedXContentRegistry.EMPTY, DeprecationHandler.THROW_UNSUPPORTED_OPERATION, json)) {
            parser.nextToken();
            parser.nextToken();
            parser.nextToken();
            assertEquals(original, CompressedKnnQueryBuilder.fromXContent(parser));
        }
    }

    public void testModelParametersAreValidated() {
        IllegalArgumentException dimensionAlone = expectThrows(
            IllegalArgumentException.class,
            () -> new CompressedKnnQueryBuilder("emb", new float[] { 1f }, 5, null, null, null, false, null, 8)
        );
        assertEquals("[compressed_knn] [model_dimension] requires [model_id]", dimensionAlone.getMessage());
        IllegalArgumentException empty = expectThrows(
            IllegalArgumentException.class,
            () -> new CompressedKnnQueryBuilder("emb", new float[] { 1f }, 5, null, null, null, false, "", null)
        );
        assertEquals("[compressed_knn] [model_id] must not be empty", empty.getMessage());
        IllegalArgumentException zero = expectThrows(
            IllegalArgumentException.class,
            () -> new CompressedKnnQueryBuilder("emb", new float[] { 1f }, 5, null, null, null, false, "m", 0)
        );
        assertEquals("[compressed_knn] [model_dimension] must be positive, got [0]", zero.getMessage());
    }
}
