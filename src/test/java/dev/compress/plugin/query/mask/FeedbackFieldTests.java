package dev.compress.plugin.query.mask;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.Test;
import org.opensearch.cluster.metadata.MappingMetadata;

public class NestedPathTests {

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
        assertEquals("doc.chunks", NestedPath.agreed(Map.of("a", mapping(twoLevels)), "doc.chunks.v"));
        // an object (not nested) between: the path stops at the nested one above it
        assertEquals("doc", NestedPath.agreed(Map.of("a", mapping(twoLevels)), "doc.meta.x"));
        assertNull(NestedPath.agreed(Map.of("a", mapping(Map.of("v", VECTOR))), "v"));
    }

    @Test
    public void indicesWithoutTheFieldDoNotCount() {
        Map<String, MappingMetadata> mappings = new LinkedHashMap<>();
        mappings.put("flat", mapping(Map.of("other", VECTOR)));
        mappings.put("nested", mapping(Map.of("chunks", Map.of("type", "nested", "properties", Map.of("v", VECTOR)))));
        mappings.put("empty", null);
        assertEquals("chunks", NestedPath.agreed(mappings, "chunks.v"));
    }

    @Test
    public void aFieldNestedDifferentlyInTwoIndicesIsRefused() {
        Map<String, MappingMetadata> mappings = new LinkedHashMap<>();
        mappings.put("nested", mapping(Map.of("chunks", Map.of("type", "nested", "properties", Map.of("v", VECTOR)))));
        mappings.put("object", mapping(Map.of("chunks", Map.of("properties", Map.of("v", VECTOR)))));
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> NestedPath.agreed(mappings, "chunks.v"));
        assertTrue(
                e.getMessage(),
                e.getMessage()
                        .contains("[mask] field [chunks.v] lies outside any nested object in index [object] but in"
                                + " nested object [chunks] in index [nested]"));
    }
}
