package dev.compress.plugin.mapper;

import java.io.IOException;
import org.opensearch.core.xcontent.XContentParser;
import org.opensearch.core.xcontent.XContentParser.Token;

/**
 * Reads one vector from a document: a flat JSON array of exactly {@code dimension} finite numbers.
 * Every rejection names the field and the problem, so a bulk item's error says what to fix.
 */
final class DocumentVectorParser {

    private DocumentVectorParser() {}

    static float[] parse(String field, XContentParser parser, VectorFieldConfig config) throws IOException {
        if (parser.currentToken() != Token.START_ARRAY) {
            throw new IllegalArgumentException("field [" + field + "] expects an array of " + config.dimension()
                    + " numbers, got [" + parser.currentToken() + "]");
        }
        float[] vector = new float[config.dimension()];
        int count = 0;
        for (Token token = parser.nextToken(); token != Token.END_ARRAY; token = parser.nextToken()) {
            if (token != Token.VALUE_NUMBER) {
                throw new IllegalArgumentException("field [" + field + "] expects only numbers, got ["
                        + describe(parser, token) + "] at position " + count);
            }
            float value = parser.floatValue();
            // the parser may give the float it cached for a double too: the text tells a number beyond float
            if (Float.isInfinite(value) && Double.isFinite(Double.parseDouble(parser.text()))) {
                throw new IllegalArgumentException("field [" + field + "] has the value [" + parser.text()
                        + "] at position " + count + ", outside float's range (magnitude up to " + Float.MAX_VALUE
                        + ")");
            }
            if (Float.isFinite(value) == false) {
                throw new IllegalArgumentException(
                        "field [" + field + "] has a non-finite value [" + value + "] at position " + count);
            }
            if (count < vector.length) {
                vector[count] = value;
            }
            count++;
        }
        if (count != config.dimension()) {
            throw new IllegalArgumentException(
                    "field [" + field + "] expects " + config.dimension() + " dimensions, got " + count);
        }
        checkSimilarity(field, vector, config.similarity());
        return vector;
    }

    /**
     * dot_product ranks correctly only on unit vectors, cosine is undefined for the zero vector and underflows
     * near it, and no similarity scores a vector beyond {@link VectorSimilarity#MAX_SQUARED_LENGTH}.
     */
    static void checkSimilarity(String field, float[] vector, VectorSimilarity similarity) {
        double squaredNorm = VectorSimilarity.squaredLength(vector);
        VectorSimilarity.checkLength("field [" + field + "]'s vector", squaredNorm);
        if (similarity == VectorSimilarity.DOT_PRODUCT) {
            VectorSimilarity.checkUnitLength("field [" + field + "] uses similarity [dot_product]", squaredNorm);
        }
        if (similarity == VectorSimilarity.COSINE) {
            VectorSimilarity.checkCosineLength(
                    "field [" + field + "] uses similarity [cosine], and its vector", squaredNorm);
        }
    }

    private static String describe(XContentParser parser, Token token) throws IOException {
        return switch (token) {
            case VALUE_STRING -> "string \"" + parser.text() + "\"";
            case START_ARRAY -> "nested array";
            case START_OBJECT -> "object";
            case VALUE_NULL -> "null";
            default -> token.name();
        };
    }
}
