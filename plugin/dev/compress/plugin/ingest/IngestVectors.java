package dev.compress.plugin.ingest;

import java.util.List;

/** Reads a document's vector as the ingest pipeline holds it: a list of numbers, each finite as a float. */
final class IngestVectors {

    private IngestVectors() {}

    static float[] read(Object value) {
        if (!(value instanceof List<?> list)) {
            throw new IllegalArgumentException("expected an array of numbers, got [" + describe(value) + "]");
        }
        if (list.isEmpty()) {
            throw new IllegalArgumentException("expected an array of numbers, got an empty array");
        }
        float[] vector = new float[list.size()];
        for (int i = 0; i < vector.length; i++) {
            Object element = list.get(i);
            if (!(element instanceof Number number)) {
                throw new IllegalArgumentException(
                        "expected only numbers, got [" + describe(element) + "] at position " + i);
            }
            float v = number.floatValue();
            if (Float.isFinite(v) == false) {
                throw new IllegalArgumentException(
                        "value [" + number + "] at position " + i + " is not a finite float");
            }
            vector[i] = v;
        }
        return vector;
    }

    /** The value as JSON names it, so the message matches what the user sent. */
    private static String describe(Object value) {
        if (value == null) {
            return "null";
        }
        if (value instanceof List<?>) {
            return "an array";
        }
        if (value instanceof java.util.Map<?, ?>) {
            return "an object";
        }
        String text = value.toString();
        String kind = value instanceof String
                ? "string"
                : value instanceof Boolean ? "boolean" : value.getClass().getSimpleName();
        return kind + " " + (text.length() > 40 ? text.substring(0, 40) + "..." : text);
    }
}
