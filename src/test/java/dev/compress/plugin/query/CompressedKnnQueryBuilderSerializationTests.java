package dev.compress.plugin.query;

import dev.compress.plugin.query.mask.MaskSpec;
import dev.compress.plugin.query.mask.MaskType;

import org.opensearch.common.io.stream.BytesStreamOutput;
import org.opensearch.core.common.ParsingException;
import org.opensearch.common.xcontent.json.JsonXContent;
import org.opensearch.core.common.io.stream.StreamInput;
import org.opensearch.core.xcontent.DeprecationHandler;
import org.opensearch.core.xcontent.NamedXContentRegistry;
import org.opensearch.core.xcontent.ToXContent;
import org.opensearch.core.xcontent.XContentBuilder;
import org.opensearch.core.xcontent.XContentParser;
import org.opensearch.test.OpenSearchTestCase;

import java.io.IOException;
import java.util.List;

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

    private static CompressedKnnQueryBuilder withMask(MaskSpec mask) {
        return new CompressedKnnQueryBuilder("emb", new float[] { 0.5f, -1f, 2f }, 5, 50, RescoreOptions.DEFAULT, null, false, "m-1", null, mask);
    }

    private static CompressedKnnQueryBuilder parse(String json) throws IOException {
        try (XContentParser parser = JsonXContent.jsonXContent.createParser(NamedXContentRegistry.EMPTY, DeprecationHandler.THROW_UNSUPPORTED_OPERATION, json)) {
            parser.nextToken();
            parser.nextToken();
            parser.nextToken();
            return CompressedKnnQueryBuilder.fromXContent(parser);
        }
    }

    public void testEveryMaskTypeSurvivesTheWireAndXContent() throws IOException {
        List<MaskSpec> masks = List.of(
            new MaskSpec(MaskType.LEARNED, 0.3, null, "qm", 1, 10, 1000, null),
            new MaskSpec(MaskType.NORM, null, 7, null, 1, 10, 1000, null),
            new MaskSpec(MaskType.CUTOFF, 0.5, null, null, 1, 10, 1000, null),
            new MaskSpec(MaskType.DIME_PRF, 0.3, null, null, 3, 10, 1000, null),
            new MaskSpec(MaskType.ECLIPSE_PRF, 0.3, null, null, 2, 5, 50, null),
            MaskSpec.explicit(new int[] { 9, 2, 0 }),
            // Eclipse's parameters on other types are not written out, so they must not make masks differ
            new MaskSpec(MaskType.DIME_PRF, 0.3, null, null, 995, 20, 3000, null),
            new MaskSpec(MaskType.NORM, 0.3, null, null, 7, 20, 3000, null)
        );
        for (MaskSpec mask : masks) {
            CompressedKnnQueryBuilder original = withMask(mask);
            try (BytesStreamOutput out = new BytesStreamOutput()) {
                original.writeTo(out);
                try (StreamInput in = out.bytes().streamInput()) {
                    assertEquals(original, new CompressedKnnQueryBuilder(in));
                }
            }
            XContentBuilder builder = JsonXContent.contentBuilder();
            original.toXContent(builder, ToXContent.EMPTY_PARAMS);
            assertEquals(builder.toString(), original, parse(builder.toString()));
        }
        assertArrayEquals(new int[] { 0, 2, 9 }, masks.get(5).kept());
        assertNotEquals(withMask(masks.get(0)), withMask(masks.get(1)));
    }

    public void testMaskDefaultsAndErrorsWhenParsed() throws IOException {
        CompressedKnnQueryBuilder eclipse = parse(
            "{\"compressed_knn\":{\"field\":\"emb\",\"vector\":[1,2],\"k\":3,\"mask\":{\"type\":\"eclipse_prf\",\"ratio\":0.3}}}"
        );
        assertEquals(new MaskSpec(MaskType.ECLIPSE_PRF, 0.3, null, null, 1, 10, 1000, null), eclipse.mask());
        ParsingException both = expectThrows(
            ParsingException.class,
            () -> parse("{\"compressed_knn\":{\"field\":\"emb\",\"vector\":[1,2],\"k\":3,\"mask\":{\"type\":\"norm\",\"ratio\":0.3,\"dimensions\":2}}}")
        );
        assertEquals("[compressed_knn] bad [mask]: [mask] type [norm] needs exactly one of [ratio] and [dimensions]", both.getMessage());
        ParsingException modelOnNorm = expectThrows(
            ParsingException.class,
            () -> parse("{\"compressed_knn\":{\"field\":\"emb\",\"vector\":[1,2],\"k\":3,\"mask\":{\"type\":\"norm\",\"ratio\":0.3,\"model_id\":\"x\"}}}")
        );
        assertEquals("[compressed_knn] bad [mask]: [mask.model_id] is only for type [learned], not [norm]", modelOnNorm.getMessage());
    }
}
