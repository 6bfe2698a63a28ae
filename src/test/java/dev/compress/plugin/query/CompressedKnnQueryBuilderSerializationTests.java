package dev.compress.plugin.query;

import dev.compress.plugin.query.mask.MaskSpec;
import dev.compress.plugin.query.mask.MaskType;
import dev.compress.plugin.stats.CompressCounters;
import java.io.IOException;
import java.util.List;
import org.opensearch.common.io.stream.BytesStreamOutput;
import org.opensearch.common.xcontent.json.JsonXContent;
import org.opensearch.core.common.ParsingException;
import org.opensearch.core.common.io.stream.StreamInput;
import org.opensearch.core.xcontent.DeprecationHandler;
import org.opensearch.core.xcontent.NamedXContentRegistry;
import org.opensearch.core.xcontent.ToXContent;
import org.opensearch.core.xcontent.XContentBuilder;
import org.opensearch.core.xcontent.XContentParser;
import org.opensearch.test.OpenSearchTestCase;

/** {@code model_id} and {@code model_dimension} survive the wire and XContent. */
public class CompressedKnnQueryBuilderSerializationTests extends OpenSearchTestCase {

    private static CompressedKnnQueryBuilder withModel() {
        return CompressedKnnQueryBuilder.builder()
                .field("emb")
                .vector(new float[] {0.5f, -1f, 2f})
                .k(5)
                .numCandidates(50)
                .rescore(RescoreOptions.DEFAULT)
                .modelId("m-1")
                .modelDimension(8)
                .build();
    }

    public void testWireRoundTrip() throws IOException {
        CompressedKnnQueryBuilder original = withModel();
        try (BytesStreamOutput out = new BytesStreamOutput()) {
            original.writeTo(out);
            try (StreamInput in = out.bytes().streamInput()) {
                CompressedKnnQueryBuilder read = new CompressedKnnQueryBuilder(in, new CompressCounters());
                assertEquals(original, read);
                assertEquals("m-1", read.modelId());
            }
        }
        assertNotEquals(
                original,
                original.toBuilder().modelId(null).modelDimension(null).build());
    }

    public void testXContentRoundTrip() throws IOException {
        CompressedKnnQueryBuilder original = withModel();
        XContentBuilder builder = JsonXContent.contentBuilder();
        original.toXContent(builder, ToXContent.EMPTY_PARAMS);
        String json = builder.toString();
        assertTrue(json, json.contains("\"model_id\":\"m-1\"") && json.contains("\"model_dimension\":8"));
        try (XContentParser parser = JsonXContent.jsonXContent.createParser(
                NamedXContentRegistry.EMPTY, DeprecationHandler.THROW_UNSUPPORTED_OPERATION, json)) {
            parser.nextToken();
            parser.nextToken();
            parser.nextToken();
            assertEquals(original, CompressedKnnQueryBuilder.fromXContent(parser, new CompressCounters()));
        }
    }

    public void testModelParametersAreValidated() {
        IllegalArgumentException dimensionAlone = expectThrows(
                IllegalArgumentException.class,
                () -> CompressedKnnQueryBuilder.builder()
                        .field("emb")
                        .vector(new float[] {1f})
                        .k(5)
                        .modelDimension(8)
                        .build());
        assertEquals("[compressed_knn] [model_dimension] requires [model_id]", dimensionAlone.getMessage());
        IllegalArgumentException empty = expectThrows(
                IllegalArgumentException.class,
                () -> CompressedKnnQueryBuilder.builder()
                        .field("emb")
                        .vector(new float[] {1f})
                        .k(5)
                        .modelId("")
                        .build());
        assertEquals("[compressed_knn] [model_id] must not be empty", empty.getMessage());
        IllegalArgumentException zero = expectThrows(
                IllegalArgumentException.class,
                () -> CompressedKnnQueryBuilder.builder()
                        .field("emb")
                        .vector(new float[] {1f})
                        .k(5)
                        .modelId("m")
                        .modelDimension(0)
                        .build());
        assertEquals("[compressed_knn] [model_dimension] must be positive, got [0]", zero.getMessage());
    }

    public void testBuilderNamesWhatIsMissingAndCopiesAQuery() {
        float[] v = {1f};
        IllegalArgumentException noK = expectThrows(
                IllegalArgumentException.class,
                () -> CompressedKnnQueryBuilder.builder().field("emb").vector(v).build());
        assertEquals("[compressed_knn] requires [k]", noK.getMessage());
        IllegalArgumentException noField = expectThrows(
                IllegalArgumentException.class,
                () -> CompressedKnnQueryBuilder.builder().vector(v).k(1).build());
        assertEquals("[compressed_knn] requires [field]", noField.getMessage());
        IllegalArgumentException noVector = expectThrows(
                IllegalArgumentException.class,
                () -> CompressedKnnQueryBuilder.builder().field("emb").k(1).build());
        assertEquals("[compressed_knn] requires a non-empty [vector]", noVector.getMessage());
        IllegalArgumentException beam = expectThrows(
                IllegalArgumentException.class,
                () -> CompressedKnnQueryBuilder.builder()
                        .field("emb")
                        .vector(v)
                        .k(10)
                        .numCandidates(5)
                        .build());
        assertEquals("[compressed_knn] [num_candidates] must be in [k=10, 10000], got [5]", beam.getMessage());

        CompressedKnnQueryBuilder masked = withMask(MaskSpec.explicit(new int[] {0, 2}));
        assertEquals(masked, masked.toBuilder().build());
        assertEquals(5, masked.k());
        assertEquals(Integer.valueOf(50), masked.numCandidates());
        assertEquals(RescoreOptions.DEFAULT, masked.rescore());
    }

    private static CompressedKnnQueryBuilder withMask(MaskSpec mask) {
        return withModel().toBuilder().modelDimension(null).mask(mask).build();
    }

    private static CompressedKnnQueryBuilder parse(String json) throws IOException {
        try (XContentParser parser = JsonXContent.jsonXContent.createParser(
                NamedXContentRegistry.EMPTY, DeprecationHandler.THROW_UNSUPPORTED_OPERATION, json)) {
            parser.nextToken();
            parser.nextToken();
            parser.nextToken();
            return CompressedKnnQueryBuilder.fromXContent(parser, new CompressCounters());
        }
    }

    public void testEveryMaskTypeSurvivesTheWireAndXContent() throws IOException {
        List<MaskSpec> masks = List.of(
                new MaskSpec(MaskType.LEARNED, 0.3, null, "qm", 1, 10, 1000, null),
                new MaskSpec(MaskType.NORM, null, 7, null, 1, 10, 1000, null),
                new MaskSpec(MaskType.CUTOFF, 0.5, null, null, 1, 10, 1000, null),
                new MaskSpec(MaskType.DIME_PRF, 0.3, null, null, 3, 10, 1000, null),
                new MaskSpec(MaskType.ECLIPSE_PRF, 0.3, null, null, 2, 5, 50, null),
                MaskSpec.explicit(new int[] {9, 2, 0}),
                // Eclipse's parameters on other types are not written out, so they must not make masks differ
                new MaskSpec(MaskType.DIME_PRF, 0.3, null, null, 995, 20, 3000, null),
                new MaskSpec(MaskType.NORM, 0.3, null, null, 7, 20, 3000, null));
        for (MaskSpec mask : masks) {
            CompressedKnnQueryBuilder original = withMask(mask);
            try (BytesStreamOutput out = new BytesStreamOutput()) {
                original.writeTo(out);
                try (StreamInput in = out.bytes().streamInput()) {
                    assertEquals(original, new CompressedKnnQueryBuilder(in, new CompressCounters()));
                }
            }
            XContentBuilder builder = JsonXContent.contentBuilder();
            original.toXContent(builder, ToXContent.EMPTY_PARAMS);
            assertEquals(builder.toString(), original, parse(builder.toString()));
        }
        assertArrayEquals(new int[] {0, 2, 9}, masks.get(5).kept());
        assertNotEquals(withMask(masks.get(0)), withMask(masks.get(1)));
    }

    public void testMaskDefaultsAndErrorsWhenParsed() throws IOException {
        CompressedKnnQueryBuilder eclipse = parse(
                "{\"compressed_knn\":{\"field\":\"emb\",\"vector\":[1,2],\"k\":3,\"mask\":{\"type\":\"eclipse_prf\",\"ratio\":0.3}}}");
        assertEquals(new MaskSpec(MaskType.ECLIPSE_PRF, 0.3, null, null, 1, 10, 1000, null), eclipse.mask());
        ParsingException both = expectThrows(
                ParsingException.class,
                () -> parse(
                        "{\"compressed_knn\":{\"field\":\"emb\",\"vector\":[1,2],\"k\":3,\"mask\":{\"type\":\"norm\",\"ratio\":0.3,\"dimensions\":2}}}"));
        assertEquals(
                "[compressed_knn] bad [mask]: [mask] type [norm] needs exactly one of [ratio] and [dimensions]",
                both.getMessage());
        ParsingException modelOnNorm = expectThrows(
                ParsingException.class,
                () -> parse(
                        "{\"compressed_knn\":{\"field\":\"emb\",\"vector\":[1,2],\"k\":3,\"mask\":{\"type\":\"norm\",\"ratio\":0.3,\"model_id\":\"x\"}}}"));
        assertEquals(
                "[compressed_knn] bad [mask]: [mask.model_id] is only for type [learned], not [norm]",
                modelOnNorm.getMessage());
    }
}
