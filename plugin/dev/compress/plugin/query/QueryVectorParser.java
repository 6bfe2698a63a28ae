package dev.compress.plugin.query;

import java.io.IOException;
import org.opensearch.core.xcontent.XContentParser;
import org.opensearch.core.xcontent.XContentParser.Token;

/** Reads a query's {@code vector}: a flat array of numbers. */
final class QueryVectorParser {

    private QueryVectorParser() {}

    static float[] parse(XContentParser parser) throws IOException {
        if (parser.currentToken() != Token.START_ARRAY) {
            throw new IllegalArgumentException("expected an array of numbers, got [" + parser.currentToken() + "]");
        }
        float[] values = new float[64];
        int n = 0;
        for (Token token = parser.nextToken(); token != Token.END_ARRAY; token = parser.nextToken()) {
            if (token != Token.VALUE_NUMBER) {
                throw new IllegalArgumentException("expected only numbers, got [" + token + "] at position " + n);
            }
            if (n == values.length) {
                values = java.util.Arrays.copyOf(values, n * 2);
            }
            float value = parser.floatValue();
            // the parser may give the float it cached for a double too: the text tells a number beyond float
            if (Float.isInfinite(value) && Double.isFinite(Double.parseDouble(parser.text()))) {
                throw new IllegalArgumentException("the value [" + parser.text() + "] at position " + n
                        + " is outside float's range (magnitude up to " + Float.MAX_VALUE + ")");
            }
            values[n++] = value;
        }
        return java.util.Arrays.copyOf(values, n);
    }
}
