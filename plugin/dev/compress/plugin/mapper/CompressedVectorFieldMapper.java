package dev.compress.plugin.mapper;

import dev.compress.plugin.CompressSettings;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import org.apache.lucene.document.FieldType;
import org.apache.lucene.document.KnnFloatVectorField;
import org.opensearch.cluster.metadata.IndexMetadata;
import org.opensearch.core.xcontent.XContentParser;
import org.opensearch.index.mapper.Mapper;
import org.opensearch.index.mapper.MapperParsingException;
import org.opensearch.index.mapper.ParametrizedFieldMapper;
import org.opensearch.index.mapper.ParseContext;

/**
 * The {@code compressed_vector} field: a dense vector stored as float32 (truncated or adapted
 * vectors) or as sign bits, in the plugin's KNN codec. Every document value is a float vector in
 * Lucene; the per-field format decides what reaches disk.
 */
public final class CompressedVectorFieldMapper extends ParametrizedFieldMapper {

    public static final String CONTENT_TYPE = "compressed_vector";

    /**
     * Parameters OpenSearch drops with only a deprecation warning from a field that does not declare them
     * ({@code index: false} would leave the field searchable), and multi-fields, which would read the vector
     * again as their own type and fail every document: refused when the mapping is given instead.
     */
    private static final List<String> REFUSED = List.of("index", "doc_values", "store", "index_options", "fields");

    private static final TypeParser PARAMETERS = new TypeParser((name, context) -> {
        if (CompressSettings.INDEX_COMPRESS.get(context.getSettings()) == false) {
            throw new MapperParsingException(
                    "field [" + name + "] of type [" + CONTENT_TYPE + "] needs the index setting ["
                            + CompressSettings.INDEX_COMPRESS.getKey() + ": true], given when the index is created");
        }
        if (IndexMetadata.INDEX_HIDDEN_SETTING.get(context.getSettings())) {
            throw new MapperParsingException(
                    "field [" + name + "] of type [" + CONTENT_TYPE + "] cannot be in a hidden index, and the"
                            + " backing indexes of a data stream are hidden: write to an alias with rollover instead");
        }
        return new Builder(name);
    });

    public static final Mapper.TypeParser PARSER = (name, node, context) -> {
        for (String parameter : REFUSED) {
            if (node.containsKey(parameter)) {
                throw new MapperParsingException("field [" + name + "] of type [" + CONTENT_TYPE + "] does not take ["
                        + parameter + "]" + ("fields".equals(parameter) ? ": a vector has no multi-fields" : ""));
            }
        }
        return PARAMETERS.parse(name, node, context);
    };

    /** A mapping parameter's integer; anything else is a 400 naming {@code name} and the value. */
    static int integer(String name, Object value) {
        try {
            return org.opensearch.common.xcontent.support.XContentMapValues.nodeIntegerValue(value);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("[" + name + "] must be an integer, got [" + value + "]");
        }
    }

    /** A mapping parameter's boolean ({@code true}, {@code false}, or those as strings); anything else is a 400 naming it. */
    static boolean bool(String name, Object value) {
        if (value instanceof Boolean b) {
            return b;
        }
        if ("true".equals(value) || "false".equals(value)) {
            return Boolean.parseBoolean((String) value);
        }
        throw new IllegalArgumentException("[" + name + "] must be true or false, got [" + value + "]");
    }

    private static CompressedVectorFieldMapper toType(org.opensearch.index.mapper.FieldMapper in) {
        return (CompressedVectorFieldMapper) in;
    }

    /** Mapping parameters; none can change once the field exists (the codec and graph depend on them). */
    public static final class Builder extends ParametrizedFieldMapper.Builder {

        private final Parameter<Integer> dimension = new Parameter<>(
                "dimension",
                false,
                () -> -1,
                (n, c, o) -> parseDimension(o),
                m -> toType(m).config.dimension());
        private final Parameter<String> encoding = Parameter.restrictedStringParam(
                "encoding",
                false,
                m -> toType(m).config.encoding().jsonName(),
                VectorEncoding.FLOAT.jsonName(),
                VectorEncoding.BINARY.jsonName());
        private final Parameter<Boolean> rescoreVectors = new Parameter<>(
                "rescore_vectors",
                false,
                () -> true,
                (n, c, o) -> bool("rescore_vectors", o),
                m -> toType(m).config.rescoreVectors());
        private final Parameter<String> similarity = Parameter.restrictedStringParam(
                "similarity",
                false,
                m -> toType(m).config.similarity().jsonName(),
                VectorSimilarity.COSINE.jsonName(),
                VectorSimilarity.DOT_PRODUCT.jsonName(),
                VectorSimilarity.L2.jsonName(),
                VectorSimilarity.INNER_PRODUCT.jsonName());
        private final Parameter<HnswMappingParameters> hnsw = new Parameter<>(
                        "hnsw",
                        false,
                        () -> HnswMappingParameters.DEFAULT,
                        (n, c, o) -> HnswMappingParameters.parse(o),
                        m -> toType(m).config.hnsw())
                .setSerializer((b, n, v) -> b.field(n, v), HnswMappingParameters::toString);
        private final Parameter<Map<String, String>> meta = Parameter.metaParam();

        public Builder(String name) {
            super(name);
        }

        @Override
        protected List<Parameter<?>> getParameters() {
            return List.of(dimension, encoding, rescoreVectors, similarity, hnsw, meta);
        }

        @Override
        public CompressedVectorFieldMapper build(BuilderContext context) {
            if (dimension.getValue() < 0) {
                throw new IllegalArgumentException(
                        "field [" + name + "] of type [" + CONTENT_TYPE + "] needs [dimension]");
            }
            VectorEncoding enc = VectorEncoding.fromJson("encoding", encoding.getValue());
            if (enc == VectorEncoding.FLOAT && rescoreVectors.isConfigured()) {
                throw new IllegalArgumentException("field [" + name
                        + "]: [rescore_vectors] applies to [encoding: binary] only; float vectors are always kept");
            }
            VectorSimilarity sim = VectorSimilarity.fromJson("similarity", similarity.getValue());
            if (enc == VectorEncoding.BINARY && rescoreVectors.getValue() == false && sim.needsMagnitudes()) {
                // codes-only fields score by the codes' estimate alone, and their merges build graphs on Hamming
                // distance, which sees no magnitudes: for the similarities that rank by magnitude too, nothing
                // would give an exact ranking back
                throw new IllegalArgumentException("field [" + name + "]: similarity [" + sim.jsonName()
                        + "] with [encoding: binary] needs [rescore_vectors: true], so that candidates are rescored"
                        + " with the stored float vectors; sign codes alone only estimate it");
            }
            VectorFieldConfig config =
                    new VectorFieldConfig(dimension.getValue(), enc, rescoreVectors.getValue(), sim, hnsw.getValue());
            String fullName = buildFullName(context);
            return new CompressedVectorFieldMapper(
                    name,
                    new CompressedVectorFieldType(fullName, config, meta.getValue()),
                    config,
                    multiFieldsBuilder.build(this, context),
                    copyTo.build());
        }

        private static int parseDimension(Object value) {
            int dims = integer("dimension", value);
            if (dims < 1 || dims > VectorFieldConfig.MAX_DIMENSION) {
                throw new IllegalArgumentException(
                        "[dimension] must be in [1, " + VectorFieldConfig.MAX_DIMENSION + "], got [" + dims + "]");
            }
            return dims;
        }
    }

    private final VectorFieldConfig config;
    private final FieldType luceneFieldType;

    private CompressedVectorFieldMapper(
            String simpleName,
            CompressedVectorFieldType fieldType,
            VectorFieldConfig config,
            MultiFields multiFields,
            CopyTo copyTo) {
        super(simpleName, fieldType, multiFields, copyTo);
        this.config = config;
        this.luceneFieldType = KnnFloatVectorField.createFieldType(
                config.dimension(), config.similarity().lucene());
    }

    @Override
    public CompressedVectorFieldType fieldType() {
        return (CompressedVectorFieldType) super.fieldType();
    }

    /**
     * OpenSearch's own message for a value this field refuses previews the value from where parsing
     * stopped, inside the array, and so reads {@code Preview of field's value: 'null'}; this one gives the
     * reason instead.
     */
    @Override
    public void parse(ParseContext context) throws IOException {
        try {
            super.parse(context);
        } catch (MapperParsingException e) {
            if (e.getCause() instanceof IllegalArgumentException reason) {
                throw new MapperParsingException(
                        "failed to parse field [" + name() + "] of type [" + CONTENT_TYPE + "] in document with id '"
                                + context.sourceToParse().id() + "': " + reason.getMessage(),
                        reason);
            }
            throw e;
        }
    }

    @Override
    protected void parseCreateField(ParseContext context) throws IOException {
        // an explicit null is an absent value, as for OpenSearch's own field types
        if (context.parser().currentToken() == XContentParser.Token.VALUE_NULL) {
            return;
        }
        float[] vector = DocumentVectorParser.parse(name(), context.parser(), config);
        context.doc().add(new KnnFloatVectorField(fieldType().name(), vector, luceneFieldType));
    }

    /** The whole JSON array is one vector, not one value per element. */
    @Override
    public boolean parsesArrayValue() {
        return true;
    }

    @Override
    public Builder getMergeBuilder() {
        return (Builder) new Builder(simpleName()).init(this);
    }

    @Override
    protected String contentType() {
        return CONTENT_TYPE;
    }
}
