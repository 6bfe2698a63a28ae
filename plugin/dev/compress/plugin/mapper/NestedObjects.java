package dev.compress.plugin.mapper;

import java.util.function.Function;
import org.opensearch.index.mapper.ObjectMapper;

/** Where a field sits relative to {@code nested} objects of its mapping. */
public final class NestedObjects {

    private NestedObjects() {}

    /**
     * The innermost {@code nested} object mapper that {@code field} (a full dotted path) lies in,
     * looked up by path with {@code objectMappers}; null when the field is in no nested object.
     */
    public static ObjectMapper innermostNested(Function<String, ObjectMapper> objectMappers, String field) {
        for (int dot = field.lastIndexOf('.'); dot > 0; dot = field.lastIndexOf('.', dot - 1)) {
            ObjectMapper object = objectMappers.apply(field.substring(0, dot));
            if (object != null && object.nested().isNested()) {
                return object;
            }
        }
        return null;
    }
}
