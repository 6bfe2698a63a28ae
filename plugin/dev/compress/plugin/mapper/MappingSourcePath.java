package dev.compress.plugin.mapper;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A field's place in a mapping's source (the map that {@code GET _mapping} returns): the objects its
 * dotted name walks through, one per name part, outermost first, each reached through its parent's
 * {@code properties}. Code that holds only cluster metadata, not the index's mapper service, reads
 * a field's mapping and its nesting from it.
 *
 * @param parts the field's name split at its dots
 * @param objects the mapping of each prefix of {@code parts}, the field's own mapping last
 */
public record MappingSourcePath(List<String> parts, List<Map<String, Object>> objects) {

    /** The walk of {@code field} through {@code mapping}, or null when the field is not mapped there. */
    @SuppressWarnings("unchecked")
    public static MappingSourcePath of(Map<String, Object> mapping, String field) {
        List<String> parts = List.of(field.split("\\."));
        List<Map<String, Object>> objects = new ArrayList<>(parts.size());
        Map<String, Object> node = mapping;
        for (String part : parts) {
            if (node.get("properties") instanceof Map<?, ?> properties
                    && properties.get(part) instanceof Map<?, ?> child) {
                node = (Map<String, Object>) child;
                objects.add(node);
            } else {
                return null;
            }
        }
        return new MappingSourcePath(parts, List.copyOf(objects));
    }

    /**
     * The walk of {@code field}, or, when it is a field alias, of the field the alias names; null when
     * the field (or the alias's target) is not mapped there.
     */
    public static MappingSourcePath throughAlias(Map<String, Object> mapping, String field) {
        MappingSourcePath path = of(mapping, field);
        if (path != null
                && "alias".equals(path.field().get("type"))
                && path.field().get("path") instanceof String target) {
            return of(mapping, target);
        }
        return path;
    }

    /** The field's dotted name. */
    public String name() {
        return String.join(".", parts);
    }

    /** The field's own mapping. */
    public Map<String, Object> field() {
        return objects.getLast();
    }

    /** The dotted path of the innermost {@code nested} object holding the field, or null when none does. */
    public String innermostNested() {
        for (int i = objects.size() - 2; i >= 0; i--) {
            if ("nested".equals(objects.get(i).get("type"))) {
                return String.join(".", parts.subList(0, i + 1));
            }
        }
        return null;
    }
}
