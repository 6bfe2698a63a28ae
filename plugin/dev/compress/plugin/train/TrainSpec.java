package dev.compress.plugin.train;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The body of {@code POST _plugins/compress/_train}, checked for shape (types, required fields,
 * ranges) before anything touches the cluster. Every error names the field and the value.
 */
public record TrainSpec(
        String method,
        String corpusIndex,
        String corpusVectorField,
        String queriesIndex,
        String queriesIdField,
        String queriesVectorField,
        String judgmentsIndex,
        String judgmentsQueryField,
        String judgmentsDocField,
        String judgmentsRatingField,
        String srwJudgmentId,
        List<Integer> dimensions,
        Map<String, Object> parameters,
        SplitSpec split,
        String device,
        String description) {

    /** True when the judgments are a Search Relevance Workbench judgment list rather than an index of rows. */
    public boolean srwJudgments() {
        return srwJudgmentId != null;
    }

    /** Held-out split: fractions of the judged queries with a seed, or a judgment field naming each row's split. */
    public record SplitSpec(double testFraction, double validationFraction, long seed, String field) {}

    private static final Set<String> TOP_LEVEL = Set.of(
            "method", "corpus", "queries", "judgments", "dimensions", "parameters", "split", "device", "description");
    private static final Set<String> DEVICES = Set.of("auto", "cpu", "gpu");

    @SuppressWarnings("unchecked")
    public static TrainSpec parse(Map<String, Object> body) {
        rejectUnknown("", body, TOP_LEVEL);
        Map<String, Object> corpus = object(body, "corpus", true);
        rejectUnknown("corpus.", corpus, Set.of("index", "vector_field"));
        Map<String, Object> queries = object(body, "queries", true);
        rejectUnknown("queries.", queries, Set.of("index", "id_field", "vector_field"));
        Map<String, Object> judgments = object(body, "judgments", true);
        String srwId = judgments.get("srw_judgment_id") == null
                ? null
                : string(judgments, "srw_judgment_id", null, "judgments.");
        // a Search Relevance Workbench list has a fixed home and shape: nothing else to name
        rejectUnknown(
                "judgments.",
                judgments,
                srwId != null
                        ? Set.of("srw_judgment_id")
                        : Set.of("index", "query_field", "doc_field", "rating_field", "srw_judgment_id"));
        Map<String, Object> split = object(body, "split", false);
        rejectUnknown(
                "split.",
                split,
                srwId != null
                        ? Set.of("test_fraction", "validation_fraction", "seed")
                        : Set.of("test_fraction", "validation_fraction", "seed", "field"));
        String device = string(body, "device", "auto");
        if (DEVICES.contains(device) == false) {
            throw new IllegalArgumentException("[device] must be one of [auto, cpu, gpu], got [" + device + "]");
        }
        Object params = body.getOrDefault("parameters", Map.of());
        if (params instanceof Map<?, ?> == false) {
            throw new IllegalArgumentException("[parameters] must be an object, got " + sent(params));
        }
        if (split.get("field") != null && split.get("test_fraction") != null) {
            throw new IllegalArgumentException(
                    "[split.test_fraction] does not apply with [split.field]: the field marks the test queries");
        }
        SplitSpec splitSpec = new SplitSpec(
                fraction(split, "test_fraction", 0.2),
                fraction(split, "validation_fraction", 0.1),
                split.get("seed") == null ? 0L : seed(split),
                split.get("field") == null ? null : string(split, "field", null, "split."));
        if (splitSpec.field() == null && splitSpec.testFraction() + splitSpec.validationFraction() >= 1) {
            throw new IllegalArgumentException(
                    "[split.test_fraction] + [split.validation_fraction] must be below 1 to leave queries to train on, got ["
                            + splitSpec.testFraction() + "] + [" + splitSpec.validationFraction() + "]");
        }
        return new TrainSpec(
                string(body, "method", null),
                string(corpus, "index", null, "corpus."),
                string(corpus, "vector_field", null, "corpus."),
                string(queries, "index", null, "queries."),
                string(queries, "id_field", "query_id", "queries."),
                string(queries, "vector_field", "vector", "queries."),
                srwId != null ? SrwJudgmentList.INDEX : string(judgments, "index", null, "judgments."),
                string(judgments, "query_field", "query_id", "judgments."),
                string(judgments, "doc_field", "doc_id", "judgments."),
                string(judgments, "rating_field", "rating", "judgments."),
                srwId,
                dimensions(body.get("dimensions")),
                (Map<String, Object>) params,
                splitSpec,
                device,
                string(body, "description", ""));
    }

    private static void rejectUnknown(String prefix, Map<String, Object> map, Set<String> known) {
        for (String key : map.keySet()) {
            if (known.contains(key) == false) {
                throw new IllegalArgumentException("[" + prefix + key
                        + "] is not a parameter of _train; expected one of " + new java.util.TreeSet<>(known));
            }
        }
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> object(Map<String, Object> body, String name, boolean required) {
        Object v = body.get(name);
        if (v == null) {
            if (required) {
                throw new IllegalArgumentException("[" + name + "] is required");
            }
            return Map.of();
        }
        if (v instanceof Map<?, ?> == false) {
            throw new IllegalArgumentException("[" + name + "] must be an object, got " + sent(v));
        }
        return (Map<String, Object>) v;
    }

    private static String string(Map<String, Object> map, String name, String defaultValue) {
        return string(map, name, defaultValue, "");
    }

    private static String string(Map<String, Object> map, String name, String defaultValue, String prefix) {
        Object v = map.get(name);
        if (v == null) {
            if (defaultValue == null) {
                throw new IllegalArgumentException("[" + prefix + name + "] is required");
            }
            return defaultValue;
        }
        if (v instanceof String == false || ((String) v).isBlank()) {
            throw new IllegalArgumentException("[" + prefix + name + "] must be a non-empty string, got [" + v + "]");
        }
        return (String) v;
    }

    private static Number number(Map<String, Object> map, String name, String prefix) {
        Object v = map.get(name);
        if (v instanceof Number == false) {
            throw new IllegalArgumentException("[" + prefix + name + "] must be a number, got " + sent(v));
        }
        return (Number) v;
    }

    /** A whole number that a long holds: 1.5 or 1e20 would silently become another seed. */
    private static long seed(Map<String, Object> split) {
        Number n = number(split, "seed", "split.");
        if (n instanceof Integer || n instanceof Long) {
            return n.longValue();
        }
        throw new IllegalArgumentException("[split.seed] must be a whole number, got [" + n + "]");
    }

    /** Test and validation fractions are above 0: every reported figure and every epoch choice needs held-out queries. */
    private static double fraction(Map<String, Object> split, String name, double defaultValue) {
        if (split.get(name) == null) {
            return defaultValue;
        }
        double f = number(split, name, "split.").doubleValue();
        if (!(f > 0.0 && f < 1.0)) {
            throw new IllegalArgumentException("[split." + name + "] must be in (0, 1), got [" + f + "]");
        }
        return f;
    }

    private static List<Integer> dimensions(Object v) {
        List<Object> raw = v instanceof List<?> list ? new ArrayList<>(list) : v == null ? null : List.of(v);
        if (raw == null) {
            return List.of(); // the method decides whether it needs target dimensions
        }
        List<Integer> dims = new ArrayList<>();
        for (Object d : raw) {
            if (d instanceof Integer == false || (Integer) d < 1) {
                throw new IllegalArgumentException("[dimensions] must hold positive whole numbers, got " + sent(d));
            }
            dims.add((Integer) d);
        }
        return dims.stream().distinct().sorted().toList();
    }

    /** A value as sent: a string named as one, so that {@code "8"} does not read as the number it holds. */
    private static String sent(Object v) {
        return v instanceof String text ? "the string [" + text + "]" : "[" + v + "]";
    }
}
