package dev.compress.plugin.query;

import java.io.IOException;
import org.opensearch.core.xcontent.XContentParser;
import org.opensearch.core.xcontent.XContentParser.Token;

/**
 * Typed reads of query parameters that fail with an {@link IllegalArgumentException} naming the
 * parameter and what was sent: the parser's own getters throw {@link IllegalStateException} on
 * {@code null}, arrays and objects, which OpenSearch answers with a 500.
 */
public final class JsonParams {

    private JsonParams() {}

    /** A string; a number is taken as its text, as OpenSearch's own parsers do for ids and names. */
    public static String string(XContentParser parser, String name) throws IOException {
        Token token = parser.currentToken();
        if (token != Token.VALUE_STRING && token != Token.VALUE_NUMBER) {
            throw new IllegalArgumentException("[" + name + "] must be a string, got " + sent(parser));
        }
        return parser.text();
    }

    public static boolean bool(XContentParser parser, String name) throws IOException {
        if (parser.currentToken() != Token.VALUE_BOOLEAN) {
            throw new IllegalArgumentException("[" + name + "] must be true or false, got " + sent(parser));
        }
        return parser.booleanValue();
    }

    /** A number; a string holding one counts, as OpenSearch's own parsers take {@code "size": "10"}. */
    public static Number number(XContentParser parser, String name) throws IOException {
        if (parser.currentToken() == Token.VALUE_NUMBER) {
            return parser.numberValue();
        }
        if (parser.currentToken() == Token.VALUE_STRING) {
            String text = parser.text().trim();
            try {
                return Long.parseLong(text);
            } catch (NumberFormatException notWhole) {
                try {
                    return Double.parseDouble(text);
                } catch (NumberFormatException notANumber) {
                    // refused below, naming the string
                }
            }
        }
        throw new IllegalArgumentException("[" + name + "] must be a number, got " + sent(parser));
    }

    /** An int; {@code 10.0} counts (clients that only have doubles send it), {@code 10.5} and {@code 1e12} do not. */
    public static int wholeNumber(XContentParser parser, String name) throws IOException {
        Number n = number(parser, name);
        boolean whole = n instanceof Integer
                || n instanceof Long && Math.abs(n.longValue()) <= Integer.MAX_VALUE
                || (n instanceof Float || n instanceof Double)
                        && n.doubleValue() == Math.rint(n.doubleValue())
                        && Math.abs(n.doubleValue()) <= Integer.MAX_VALUE;
        if (whole == false) {
            boolean integral = n.doubleValue() == Math.rint(n.doubleValue());
            throw new IllegalArgumentException("[" + name + "] must be a whole number"
                    + (integral ? " from " + Integer.MIN_VALUE + " to " + Integer.MAX_VALUE : "") + ", got [" + n
                    + "]");
        }
        return n.intValue();
    }

    /** The current value as the user sent it, a string named as one: for errors. */
    public static String sent(XContentParser parser) throws IOException {
        return switch (parser.currentToken()) {
            case VALUE_NULL -> "[null]";
            case START_ARRAY -> "an array";
            case START_OBJECT -> "an object";
            case VALUE_STRING -> "the string [" + parser.text() + "]";
            default -> "[" + parser.text() + "]";
        };
    }
}
