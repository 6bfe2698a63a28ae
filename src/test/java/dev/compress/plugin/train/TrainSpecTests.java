package dev.compress.plugin.train;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.opensearch.test.OpenSearchTestCase;

public class TrainSpecTests extends OpenSearchTestCase {

    private static Map<String, Object> body() {
        Map<String, Object> body = new HashMap<>();
        body.put("method", "pca");
        body.put("corpus", Map.of("index", "docs", "vector_field", "v"));
        body.put("queries", Map.of("index", "queries", "vector_field", "v"));
        body.put("judgments", Map.of("index", "judgments"));
        body.put("dimensions", List.of(64));
        return body;
    }

    public void testAValidBodyParses() {
        assertEquals(List.of(64), TrainSpec.parse(body()).dimensions());
    }

    /** A number sent as a string is named as a string: {@code got [8]} would read as a valid value. */
    public void testStringsWhereNumbersGoAreQuoted() {
        Map<String, Object> dims = body();
        dims.put("dimensions", List.of("8"));
        assertEquals(
                "[dimensions] must hold positive whole numbers, got the string [8]",
                expectThrows(IllegalArgumentException.class, () -> TrainSpec.parse(dims))
                        .getMessage());
        Map<String, Object> seed = body();
        seed.put("split", Map.of("seed", "7"));
        assertEquals(
                "[split.seed] must be a number, got the string [7]",
                expectThrows(IllegalArgumentException.class, () -> TrainSpec.parse(seed))
                        .getMessage());
    }
}
