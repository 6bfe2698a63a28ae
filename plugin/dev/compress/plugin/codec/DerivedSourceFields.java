package dev.compress.plugin.codec;

import dev.compress.plugin.mapper.CompressedVectorFieldType;
import dev.compress.plugin.mapper.NestedObjects;
import dev.compress.plugin.mapper.VectorEncoding;
import dev.compress.plugin.mapper.VectorFieldConfig;
import java.util.HashSet;
import java.util.Set;
import org.opensearch.index.mapper.MappedFieldType;
import org.opensearch.index.mapper.MapperService;

/**
 * The {@code compressed_vector} fields of an index whose values can leave {@code _source}: those
 * whose vector format keeps the exact floats (float fields, binary fields with {@code
 * rescore_vectors}), outside nested objects (a nested vector lives in a child document that has no
 * {@code _source} to restore it into).
 */
final class DerivedSourceFields {

    private DerivedSourceFields() {}

    static Set<String> of(MapperService mapperService) {
        Set<String> fields = new HashSet<>();
        for (MappedFieldType type : mapperService.fieldTypes()) {
            if (type instanceof CompressedVectorFieldType compressed
                    && keepsExactFloats(compressed.config())
                    && NestedObjects.innermostNested(mapperService::getObjectMapper, type.name()) == null) {
                fields.add(type.name());
            }
        }
        return Set.copyOf(fields);
    }

    private static boolean keepsExactFloats(VectorFieldConfig config) {
        return config.encoding() == VectorEncoding.FLOAT || config.rescoreVectors();
    }
}
