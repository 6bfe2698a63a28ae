package dev.compress.plugin.train;

import dev.compress.plugin.CompressClusterTestCase;
import java.io.IOException;
import org.opensearch.test.OpenSearchIntegTestCase;

/**
 * The {@code _train} body as it reaches the REST layer: something other than a JSON object, and NaN
 * or Infinity where a number goes, are 400s that say what is wrong and where, not a parser's words
 * or a complaint about the first required field. None needs data: they are refused before any is read.
 */
@OpenSearchIntegTestCase.ClusterScope(scope = OpenSearchIntegTestCase.Scope.SUITE, numDataNodes = 1, numClientNodes = 0)
public class TrainRequestBodyTests extends CompressClusterTestCase {

    private static final String TRAIN = "/_plugins/compress/_train";

    private static String body(String parameters) {
        return "{\"method\":\"dive\",\"dimensions\":64,\"corpus\":{\"index\":\"c\",\"vector_field\":\"v\"},\"queries\":{\"index\":\"q\"},"
                + "\"judgments\":{\"index\":\"j\"},\"parameters\":" + parameters + "}";
    }

    private static void assertRefused(String expected, String path, String body) throws IOException {
        String error = restError(400, "POST", path, body);
        assertTrue(error, error.contains(expected));
    }

    public void testABodyThatIsNoObjectIsRefusedAsSuch() throws IOException {
        assertRefused("the body of _train must be a JSON object, got the array [1, 2, 3]", TRAIN, "[1,2,3]");
        assertRefused(
                "the body of _train must be a JSON object, got the array []",
                "/_plugins/compress/models/m/_train",
                "[]");
        assertRefused("the body of _train must be a JSON object, got the value [dive]", TRAIN, "\"dive\"");
        assertRefused("the body of _train must be a JSON object, got the value [42]", TRAIN, "42");
        // an object still gets the field checks
        assertRefused("[corpus] is required", TRAIN, "{\"method\":\"dive\"}");
    }

    public void testNaNAndInfinityAreRefusedNamingTheFieldAndValue() throws IOException {
        assertRefused("[parameters.margin] must be a finite number, got [NaN]", TRAIN, body("{\"margin\":NaN}"));
        assertRefused(
                "[parameters.lambda] must be a finite number, got [Infinity]", TRAIN, body("{\"lambda\":Infinity}"));
        assertRefused(
                "[parameters.tau] must be a finite number, got [-Infinity]",
                "/_plugins/compress/models/m/_train",
                body("{\"tau\":-Infinity}"));
        // a literal too large for a double is read as infinity
        assertRefused("[parameters.epochs] must be a finite number, got [Infinity]", TRAIN, body("{\"epochs\":1e999}"));
        assertRefused(
                "[split.seed] must be a finite number, got [NaN]",
                TRAIN,
                body("{}").replace("{\"method\"", "{\"split\":{\"seed\":NaN},\"method\""));
        assertRefused(
                "[dimensions] must hold finite numbers, got [NaN]",
                TRAIN,
                body("{}").replace("\"dimensions\":64", "\"dimensions\":[32,NaN]"));
        // what is not JSON at all is still the parser's to say
        assertRefused("Unexpected character", TRAIN, "{\"method\":}");
        assertRefused("Duplicate field 'method'", TRAIN, "{\"method\":\"dive\",\"method\":\"pca\"}");
    }
}
