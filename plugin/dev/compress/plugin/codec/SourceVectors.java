package dev.compress.plugin.codec;

import java.io.IOException;
import java.util.HashSet;
import java.util.Set;
import org.apache.lucene.util.BytesRef;
import org.opensearch.common.xcontent.XContentHelper;
import org.opensearch.core.common.bytes.BytesArray;
import org.opensearch.core.common.bytes.BytesReference;
import org.opensearch.core.xcontent.DeprecationHandler;
import org.opensearch.core.xcontent.MediaType;
import org.opensearch.core.xcontent.MediaTypeRegistry;
import org.opensearch.core.xcontent.NamedXContentRegistry;
import org.opensearch.core.xcontent.XContentBuilder;
import org.opensearch.core.xcontent.XContentParser;

/**
 * Takes vectors out of a stored {@code _source} and puts them back. A stripped vector leaves a
 * {@link #PLACEHOLDER} where its array was, so that the document keeps its key order, and so that
 * only vectors this class took out are put back: a field that a user's own source filtering
 * removed, or that a document never had, stays absent. The source is streamed in its own content
 * type (JSON, SMILE, CBOR, YAML); everything other than the vectors is copied token by token.
 */
final class SourceVectors {

    /** What a stripped vector leaves behind: one byte in JSON, never a valid vector value. */
    static final int PLACEHOLDER = 0;

    /** Looks up a stripped field's vector when a source is read back; null when the document has none. */
    @FunctionalInterface
    interface VectorLookup {
        float[] vector(String field) throws IOException;
    }

    private SourceVectors() {}

    /**
     * The source with each of {@code fields} (full dotted paths) that holds an array replaced by the
     * placeholder, and the fields it replaced; null when it replaced none.
     */
    static Stripped strip(BytesRef source, Set<String> fields) throws IOException {
        if (fields.isEmpty()) {
            return null;
        }
        Rewrite rewrite = new Rewrite() {
            @Override
            boolean rewrites(String path, XContentParser.Token token) {
                return token == XContentParser.Token.START_ARRAY && fields.contains(path);
            }

            @Override
            void write(String path, XContentParser parser, XContentBuilder out) throws IOException {
                parser.skipChildren();
                out.value(PLACEHOLDER);
            }
        };
        BytesRef rewritten = rewrite.apply(source);
        return rewritten == null ? null : new Stripped(rewritten, Set.copyOf(rewrite.rewritten));
    }

    /** The source with each placeholder of {@code fields} replaced by the field's vector; the same bytes when none. */
    static BytesRef restore(BytesRef source, Set<String> fields, VectorLookup vectors) throws IOException {
        if (fields.isEmpty()) {
            return source;
        }
        Rewrite rewrite = new Rewrite() {
            @Override
            boolean rewrites(String path, XContentParser.Token token) {
                return token == XContentParser.Token.VALUE_NUMBER && fields.contains(path);
            }

            @Override
            void write(String path, XContentParser parser, XContentBuilder out) throws IOException {
                float[] vector = vectors.vector(path);
                if (vector == null) {
                    // the placeholder without a vector behind it: a document that failed after its
                    // source was written; null is what an absent vector reads as
                    out.nullValue();
                    return;
                }
                out.startArray();
                for (float v : vector) {
                    out.value(v);
                }
                out.endArray();
            }
        };
        BytesRef rewritten = rewrite.apply(source);
        return rewritten == null ? source : rewritten;
    }

    /** A stripped source and the fields taken out of it. */
    record Stripped(BytesRef source, Set<String> fields) {}

    /** One streaming pass that copies a source and rewrites the values at chosen paths. */
    private abstract static class Rewrite {

        final Set<String> rewritten = new HashSet<>();

        abstract boolean rewrites(String path, XContentParser.Token token);

        abstract void write(String path, XContentParser parser, XContentBuilder out) throws IOException;

        /** The rewritten source, or null when nothing was rewritten. */
        BytesRef apply(BytesRef source) throws IOException {
            BytesReference bytes = new BytesArray(source.bytes, source.offset, source.length);
            MediaType type = MediaTypeRegistry.xContentType(bytes);
            if (type == null) {
                return null;
            }
            try (XContentParser parser = XContentHelper.createParser(
                            NamedXContentRegistry.EMPTY, DeprecationHandler.IGNORE_DEPRECATIONS, bytes, type);
                    XContentBuilder out = XContentBuilder.builder(type.xContent())) {
                if (parser.nextToken() != XContentParser.Token.START_OBJECT) {
                    return null;
                }
                copyObject(parser, out, "");
                if (rewritten.isEmpty()) {
                    return null;
                }
                return BytesReference.bytes(out).toBytesRef();
            }
        }

        private void copyObject(XContentParser parser, XContentBuilder out, String prefix) throws IOException {
            out.startObject();
            while (parser.nextToken() == XContentParser.Token.FIELD_NAME) {
                String name = parser.currentName();
                String path = prefix.isEmpty() ? name : prefix + "." + name;
                XContentParser.Token token = parser.nextToken();
                out.field(name);
                if (rewrites(path, token)) {
                    write(path, parser, out);
                    rewritten.add(path);
                } else if (token == XContentParser.Token.START_OBJECT) {
                    copyObject(parser, out, path);
                } else {
                    out.copyCurrentStructure(parser);
                }
            }
            out.endObject();
        }
    }
}
