package dev.compress.plugin.query;

import org.opensearch.core.xcontent.XContentParser;
import org.opensearch.core.xcontent.XContentParser.Token;

import java.io.IOException;

/**
 * Typed reads of query parameters that fail with an {@link IllegalArgumentException} naming the
 * parameter and what was sent: the parser's own getters throw {@link IllegalStateException} on
 * {@code null}, arrays and objects, which OpenSearch answers with a 500.
 */
public final class JsonParams {

    private JsonParams() {}

    public static String string(XContentParser parser, String name) throws IOException {
        if (parser.currentToken() != Token.VALUE_STRING) {
            throw new IllegalArgumentException("[" + name + "] must be a string, got " + sent(parser));
        }
        return parser.text();
    }

    public static Number number(XContentParser parser, String name) throws IOException {
        if (parser.currentToken() != Token.VALUE_NUMBER) {
            throw new IllegalArgumentException("[" + name + "] must be a number, got " + sent(parser));
        }
        return parser.numberValue();
    }

    public static int wholeNumber(XContentParser parser, String name) throws IOException {
        Number n = number(parser, name);
        if (parser.numberType() != XContentParser.NumberType.INT) {
            throw new IllegalArgumentException("[" + name + "] must be a whole number up to " + Integer.MAX_VALUE + ", got [" + n + "]");
        }
        return n.intValue();
    }

    private static String sent(XContentParser parser) throws IOException {
        return switch (parser.currentToken()) {
            case VALUE_NULL -> "[null]";
            case START_ARRAY -> "an array";
            case START_OBJECT -> "an object";
            default -> "[" + parser.text() + "]";
        };
    }
}
