package dev.compress.plugin.query;

import dev.compress.plugin.query.mask.MaskSpec;
import dev.compress.plugin.query.mask.MaskType;
import dev.compress.plugin.stats.CompressCounters;
import java.io.IOException;
import java.util.List;
import org.opensearch.action.OriginalIndices;
import org.opensearch.action.support.IndicesOptions;
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
            assertEquals(original, CompressedKnnQueryParser.parse(parser, new CompressCounters()));
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
        assertEquals("[compressed_knn] takes exactly one of [k], [min_score] and [max_distance]", noK.getMessage());
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
        assertEquals(Integer.valueOf(5), masked.k());
        assertEquals(Integer.valueOf(50), masked.numCandidates());
        assertEquals(RescoreOptions.DEFAULT, masked.rescore());
    }

    public void testRadialSearchesSurviveTheWireAndXContent() throws IOException {
        List<CompressedKnnQueryBuilder> radial = List.of(
                CompressedKnnQueryBuilder.builder()
                        .field("emb")
                        .vector(new float[] {0.5f, -1f})
                        .minScore(0.75f)
                        .build(),
                CompressedKnnQueryBuilder.builder()
                        .field("emb")
                        .vector(new float[] {0.5f, -1f})
                        .maxDistance(1.5f)
                        .mask(MaskSpec.explicit(new int[] {1}))
                        .build());
        for (CompressedKnnQueryBuilder original : radial) {
            assertTrue(original.isRadial());
            try (BytesStreamOutput out = new BytesStreamOutput()) {
                original.writeTo(out);
                try (StreamInput in = out.bytes().streamInput()) {
                    assertEquals(original, new CompressedKnnQueryBuilder(in, new CompressCounters()));
                }
            }
            XContentBuilder builder = JsonXContent.contentBuilder();
            original.toXContent(builder, ToXContent.EMPTY_PARAMS);
            assertFalse(builder.toString(), builder.toString().contains("\"k\""));
            assertEquals(builder.toString(), original, parse(builder.toString()));
        }
        assertNotEquals(radial.get(0), radial.get(1));
        assertFalse(withModel().isRadial());
    }

    /** The model a vector came from crosses the wire to the shards, which name it; it is provenance, not compared. */
    public void testTheModelAnAdaptedVectorCameFromSurvivesTheWire() throws IOException {
        CompressedKnnQueryBuilder adapted = withModel().toBuilder()
                .modelId(null)
                .modelDimension(null)
                .adaptedBy("m")
                .build();
        assertEquals(withModel().toBuilder().modelId(null).modelDimension(null).build(), adapted);
        try (BytesStreamOutput out = new BytesStreamOutput()) {
            adapted.writeTo(out);
            try (StreamInput in = out.bytes().streamInput()) {
                assertEquals("m", new CompressedKnnQueryBuilder(in, new CompressCounters()).adaptedBy());
            }
        }
    }

    /** The adapt request carries the searched indices and their options, or none, across the wire. */
    public void testTheAdaptRequestSurvivesTheWire() throws IOException {
        OriginalIndices searched =
                new OriginalIndices(new String[] {"docs", "logs-*"}, IndicesOptions.strictExpandOpen());
        for (OriginalIndices indices : java.util.Arrays.asList(searched, null)) {
            AdaptQueryVectorRequest sent = new AdaptQueryVectorRequest("m", null, new float[] {1f, 2f}, "emb", indices);
            try (BytesStreamOutput out = new BytesStreamOutput()) {
                sent.writeTo(out);
                try (StreamInput in = out.bytes().streamInput()) {
                    AdaptQueryVectorRequest read = new AdaptQueryVectorRequest(in);
                    assertEquals("m", read.modelId());
                    assertNull(read.dimension());
                    assertArrayEquals(new float[] {1f, 2f}, read.vector(), 0f);
                    assertEquals("emb", read.field());
                    if (indices == null) {
                        assertNull(read.searched());
                    } else {
                        assertArrayEquals(indices.indices(), read.searched().indices());
                        assertEquals(indices.indicesOptions(), read.searched().indicesOptions());
                    }
                }
            }
        }
    }

    public void testExpandNestedDocsSurvivesTheWireAndXContent() throws IOException {
        CompressedKnnQueryBuilder original =
                withModel().toBuilder().expandNestedDocs(true).build();
        assertNotEquals(withModel(), original);
        try (BytesStreamOutput out = new BytesStreamOutput()) {
            original.writeTo(out);
            try (StreamInput in = out.bytes().streamInput()) {
                assertEquals(original, new CompressedKnnQueryBuilder(in, new CompressCounters()));
            }
        }
        XContentBuilder builder = JsonXContent.contentBuilder();
        original.toXContent(builder, ToXContent.EMPTY_PARAMS);
        assertTrue(builder.toString(), builder.toString().contains("\"expand_nested_docs\":true"));
        assertEquals(original, parse(builder.toString()));
        assertEquals(
                "[compressed_knn] bad [expand_nested_docs]: [expand_nested_docs] must be true or false, got the string [yes]",
                parseError("{\"field\":\"emb\",\"vector\":[1],\"k\":1,\"expand_nested_docs\":\"yes\"}"));

        assertEquals(
                "[compressed_knn] bad [ignore_unmapped]: [ignore_unmapped] must be true or false, got [1]",
                parseError("{\"field\":\"emb\",\"vector\":[1],\"k\":1,\"ignore_unmapped\":1}"));
        assertEquals(
                "[compressed_knn] bad [boost]: [boost] must be a number, got [true]",
                parseError("{\"field\":\"emb\",\"vector\":[1],\"k\":1,\"boost\":true}"));
    }

    public void testRadialParametersAreValidatedWhenParsed() {
        String v = "\"field\":\"emb\",\"vector\":[1,2]";
        assertEquals(
                "[compressed_knn] takes exactly one of [k], [min_score] and [max_distance], got [k=3] and [min_score=0.5]",
                parseError("{" + v + ",\"k\":3,\"min_score\":0.5}"));
        assertEquals(
                "[compressed_knn] takes exactly one of [k], [min_score] and [max_distance], got [min_score=0.5] and"
                        + " [max_distance=2.0]",
                parseError("{" + v + ",\"min_score\":0.5,\"max_distance\":2}"));
        assertEquals(
                "[compressed_knn] [min_score] must be a finite number > 0, got [0.0]",
                parseError("{" + v + ",\"min_score\":0}"));
        assertEquals(
                "[compressed_knn] [max_distance] must be a finite number >= 0, got [-1.0]",
                parseError("{" + v + ",\"max_distance\":-1}"));
        assertEquals(
                "[compressed_knn] [num_candidates] applies to [k] searches only, not to [min_score], which scores"
                        + " every document",
                parseError("{" + v + ",\"min_score\":0.5,\"num_candidates\":100}"));
        assertEquals(
                "[compressed_knn] [rescore] applies to [k] searches only, not to [max_distance], which scores every"
                        + " document with its float vector",
                parseError("{" + v + ",\"max_distance\":1,\"rescore\":false}"));
        assertEquals(
                "[compressed_knn] bad [min_score]: [min_score] must be a number, got the string [high]",
                parseError("{" + v + ",\"min_score\":\"high\"}"));
    }

    /** Numbers sent as strings count, as OpenSearch's own parsers take {@code "size": "10"}. */
    public void testNumbersSentAsStringsCount() throws IOException {
        String v = "\"field\":\"f\",\"vector\":[0.5,0.5]";
        assertEquals(
                parse("{\"compressed_knn\":{" + v + ",\"k\":3,\"num_candidates\":20,\"boost\":2.5,"
                        + "\"rescore\":{\"oversample_factor\":4},\"mask\":{\"type\":\"norm\",\"ratio\":0.5}}}"),
                parse(
                        "{\"compressed_knn\":{" + v + ",\"k\":\"3\",\"num_candidates\":\" 20 \",\"boost\":\"2.5\","
                                + "\"rescore\":{\"oversample_factor\":\"4\"},\"mask\":{\"type\":\"norm\",\"ratio\":\"0.5\"}}}"));
        assertEquals(
                "[compressed_knn] bad [k]: [k] must be a whole number, got [3.5]",
                parseError("{" + v + ",\"k\":\"3.5\"}"));
        assertEquals(
                "[compressed_knn] bad [k]: [k] must be a number, got the string [three]",
                parseError("{" + v + ",\"k\":\"three\"}"));
    }

    private static String parseError(String body) {
        return expectThrows(ParsingException.class, () -> parse("{\"compressed_knn\":" + body + "}"))
                .getMessage();
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
            return CompressedKnnQueryParser.parse(parser, new CompressCounters());
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
