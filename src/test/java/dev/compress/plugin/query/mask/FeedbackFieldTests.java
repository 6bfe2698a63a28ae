package dev.compress.plugin.query.mask;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.Test;
import org.opensearch.cluster.metadata.MappingMetadata;

public class FeedbackFieldTests {

    private static MappingMetadata mapping(Map<String, Object> properties) {
        return new MappingMetadata("_doc", Map.of("properties", properties));
    }

    private static final Map<String, Object> VECTOR = Map.of("type", "compressed_vector", "dimension", 4);

    @Test
    public void theInnermostNestedObjectOfTheField() {
        Map<String, Object> twoLevels = Map.of(
                "doc",
                Map.of(
                        "type",
                        "nested",
                        "properties",
                        Map.of(
                                "meta",
                                Map.of("properties", Map.of("x", VECTOR)),
                                "chunks",
                                Map.of("type", "nested", "properties", Map.of("v", VECTOR)))));
        assertEquals(
                "doc.chunks",
                FeedbackField.agreed(Map.of("a", mapping(twoLevels)), "doc.chunks.v")
                        .nestedPath());
        // an object (not nested) between: the path stops at the nested one above it
        assertEquals(
                "doc",
                FeedbackField.agreed(Map.of("a", mapping(twoLevels)), "doc.meta.x")
                        .nestedPath());
        assertNull(FeedbackField.agreed(Map.of("a", mapping(Map.of("v", VECTOR))), "v")
                .nestedPath());
    }

    @Test
    public void indicesWithoutTheFieldDoNotCount() {
        Map<String, MappingMetadata> mappings = new LinkedHashMap<>();
        mappings.put("flat", mapping(Map.of("other", VECTOR)));
        mappings.put("nested", mapping(Map.of("chunks", Map.of("type", "nested", "properties", Map.of("v", VECTOR)))));
        mappings.put("empty", null);
        assertEquals("chunks", FeedbackField.agreed(mappings, "chunks.v").nestedPath());
    }

    @Test
    public void aFieldNestedDifferentlyInTwoIndicesIsRefused() {
        Map<String, MappingMetadata> mappings = new LinkedHashMap<>();
        mappings.put("nested", mapping(Map.of("chunks", Map.of("type", "nested", "properties", Map.of("v", VECTOR)))));
        mappings.put("object", mapping(Map.of("chunks", Map.of("properties", Map.of("v", VECTOR)))));
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> FeedbackField.agreed(mappings, "chunks.v"));
        assertTrue(
                e.getMessage(),
                e.getMessage()
                        .contains("[mask] field [chunks.v] lies outside any nested object in index [object] but in"
                                + " nested object [chunks] in index [nested]"));
    }

    @Test
    public void aFieldAliasIsReadUnderTheFieldItNames() {
        Map<String, MappingMetadata> mappings = new LinkedHashMap<>();
        mappings.put("aliased", mapping(Map.of("v", VECTOR, "va", Map.of("type", "alias", "path", "v"))));
        mappings.put("concrete", mapping(Map.of("va", VECTOR)));
        mappings.put("without", mapping(Map.of("other", VECTOR)));
        FeedbackField where = FeedbackField.agreed(mappings, "va");
        assertNull(where.nestedPath());
        assertEquals("v", where.sourceField("aliased"));
        assertEquals("va", where.sourceField("concrete"));
        assertEquals(Map.of("aliased", "v", "concrete", "va"), where.sourceFields());

        // an alias beside its target in a nested object: the chunk's own field, relative to the chunk
        Map<String, Object> chunks = Map.of(
                "type", "nested", "properties", Map.of("v", VECTOR, "va", Map.of("type", "alias", "path", "chunks.v")));
        FeedbackField nested = FeedbackField.agreed(Map.of("n", mapping(Map.of("chunks", chunks))), "chunks.va");
        assertEquals("chunks", nested.nestedPath());
        assertEquals("v", nested.chunkField("n"));
    }
}
