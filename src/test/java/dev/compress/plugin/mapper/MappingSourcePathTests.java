package dev.compress.plugin.mapper;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;

import java.util.List;
import java.util.Map;
import org.junit.Test;

public class MappingSourcePathTests {

    private static final Map<String, Object> VECTOR = Map.of("type", "compressed_vector", "dimension", 4);

    private static final Map<String, Object> MAPPING = Map.of(
            "properties",
            Map.of(
                    "v",
                    VECTOR,
                    "doc",
                    Map.of(
                            "type",
                            "nested",
                            "properties",
                            Map.of(
                                    "meta",
                                    Map.of("properties", Map.of("x", VECTOR)),
                                    "chunks",
                                    Map.of("type", "nested", "properties", Map.of("v", VECTOR))))));

    @Test
    public void aMappedFieldGivesItsOwnMappingAndTheObjectsAboveIt() {
        MappingSourcePath path = MappingSourcePath.of(MAPPING, "doc.chunks.v");
        assertEquals(List.of("doc", "chunks", "v"), path.parts());
        assertEquals(3, path.objects().size());
        assertEquals(VECTOR, path.field());
        assertEquals(VECTOR, MappingSourcePath.of(MAPPING, "v").field());
    }

    @Test
    public void theInnermostNestedObjectAboveTheField() {
        assertEquals("doc.chunks", MappingSourcePath.of(MAPPING, "doc.chunks.v").innermostNested());
        assertEquals("doc", MappingSourcePath.of(MAPPING, "doc.meta.x").innermostNested());
        // a nested object itself lies in no nested object above it
        assertNull(MappingSourcePath.of(MAPPING, "doc").innermostNested());
        assertNull(MappingSourcePath.of(MAPPING, "v").innermostNested());
    }

    @Test
    public void anUnmappedFieldHasNoPath() {
        assertNull(MappingSourcePath.of(MAPPING, "w"));
        assertNull(MappingSourcePath.of(MAPPING, "doc.chunks.w"));
        assertNull(MappingSourcePath.of(MAPPING, "v.below"));
        assertNull(MappingSourcePath.of(Map.of(), "v"));
    }
}
