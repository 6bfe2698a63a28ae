package dev.compress.plugin.query.mask;

import dev.compress.plugin.query.JsonParams;
import dev.compress.training.mask.DimensionMasks;
import dev.compress.training.mask.MaskEvaluation;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import org.opensearch.core.common.ParsingException;
import org.opensearch.core.common.io.stream.StreamInput;
import org.opensearch.core.common.io.stream.StreamOutput;
import org.opensearch.core.common.io.stream.Writeable;
import org.opensearch.core.xcontent.XContentBuilder;
import org.opensearch.core.xcontent.XContentParser;
import org.opensearch.core.xcontent.XContentParser.Token;

/**
 * The {@code mask} parameter of {@code compressed_knn}: which of the query's dimensions to keep.
 * How many comes from {@code ratio} (of the query vector's dimension, rounded, at least 1) or
 * {@code dimensions}; which from the {@link MaskType}. Every type but {@link MaskType#EXPLICIT}
 * is resolved to an explicit list of kept dimensions in the query's rewrite on the coordinating node.
 *
 * @param modelId       {@code learned}: the mask model
 * @param feedbackDocs  PRF: first-pass top documents taken as relevant
 * @param negativeDocs  {@code eclipse_prf}: documents at the tail of the first-pass list taken as irrelevant
 * @param negativeDepth {@code eclipse_prf}: length of the first-pass list whose tail gives the negatives
 * @param kept          {@code explicit}: the kept dimensions, ascending
 */
public record MaskSpec(
        MaskType type,
        Double ratio,
        Integer dimensions,
        String modelId,
        int feedbackDocs,
        int negativeDocs,
        int negativeDepth,
        int[] kept)
        implements Writeable {

    /** Defaults of the offline evaluation ({@link MaskEvaluation.Prf#defaults()}), so figures carry over. */
    public static final int DEFAULT_FEEDBACK_DOCS =
            MaskEvaluation.Prf.defaults().feedbackDocs();

    public static final int DEFAULT_NEGATIVE_DOCS =
            MaskEvaluation.Prf.defaults().negativeDocs();
    public static final int DEFAULT_NEGATIVE_DEPTH =
            MaskEvaluation.Prf.defaults().negativeDepth();
    /** First-pass depth cap: the first pass is a {@code compressed_knn} search with this many hits per shard. */
    public static final int MAX_DEPTH = 10_000;

    public MaskSpec {
        Objects.requireNonNull(type, "[mask.type] is required");
        // parameters of other types are not written out: keep them at their defaults so equal masks compare equal
        if (type.isPseudoRelevanceFeedback() == false) {
            feedbackDocs = DEFAULT_FEEDBACK_DOCS;
        }
        if (type != MaskType.ECLIPSE_PRF) {
            negativeDocs = DEFAULT_NEGATIVE_DOCS;
            negativeDepth = DEFAULT_NEGATIVE_DEPTH;
        }
        if (type == MaskType.EXPLICIT) {
            if (kept == null || kept.length == 0) {
                throw new IllegalArgumentException("[mask.kept] must list at least one dimension for type [explicit]");
            }
            kept = kept.clone();
            Arrays.sort(kept);
            for (int i = 0; i < kept.length; i++) {
                if (kept[i] < 0 || (i > 0 && kept[i] == kept[i - 1])) {
                    throw new IllegalArgumentException(
                            "[mask.kept] must hold distinct dimensions >= 0, got " + Arrays.toString(kept));
                }
            }
            if (ratio != null || dimensions != null) {
                throw new IllegalArgumentException("[mask] type [explicit] takes [kept], not [ratio] or [dimensions]");
            }
        } else {
            if (kept != null) {
                throw new IllegalArgumentException(
                        "[mask.kept] is only for type [explicit], not [" + type.jsonName() + "]");
            }
            if (type == MaskType.LEARNED) {
                // a learned mask may give neither: it then keeps the share its model chose on validation
                if (ratio != null && dimensions != null) {
                    throw new IllegalArgumentException(
                            "[mask] type [learned] takes one of [ratio] and [dimensions], not both");
                }
            } else if ((ratio == null) == (dimensions == null)) {
                throw new IllegalArgumentException(
                        "[mask] type [" + type.jsonName() + "] needs exactly one of [ratio] and [dimensions]");
            }
            if (ratio != null && !(ratio > 0 && ratio <= 1)) {
                throw new IllegalArgumentException("[mask.ratio] must be in (0, 1], got [" + ratio + "]");
            }
            if (dimensions != null && dimensions < 1) {
                throw new IllegalArgumentException("[mask.dimensions] must be at least 1, got [" + dimensions + "]");
            }
        }
        if (type == MaskType.LEARNED && (modelId == null || modelId.isBlank())) {
            throw new IllegalArgumentException("[mask] type [learned] requires [mask.model_id]");
        }
        if (type != MaskType.LEARNED && modelId != null) {
            throw new IllegalArgumentException(
                    "[mask.model_id] is only for type [learned], not [" + type.jsonName() + "]");
        }
        if (feedbackDocs < 1 || feedbackDocs > MAX_DEPTH) {
            throw new IllegalArgumentException(
                    "[mask.feedback_docs] must be in [1, " + MAX_DEPTH + "], got [" + feedbackDocs + "]");
        }
        if (negativeDocs < 1 || negativeDocs > MAX_DEPTH) {
            throw new IllegalArgumentException(
                    "[mask.negative_docs] must be in [1, " + MAX_DEPTH + "], got [" + negativeDocs + "]");
        }
        if (type == MaskType.ECLIPSE_PRF && feedbackDocs + negativeDocs > MAX_DEPTH) {
            throw new IllegalArgumentException("[mask.feedback_docs] + [mask.negative_docs] must be at most "
                    + MAX_DEPTH + " (the negatives are taken below the feedback documents), got [" + feedbackDocs
                    + "] + [" + negativeDocs + "]");
        }
        if (type == MaskType.ECLIPSE_PRF
                && (negativeDepth < feedbackDocs + negativeDocs || negativeDepth > MAX_DEPTH)) {
            throw new IllegalArgumentException("[mask.negative_depth] must be in [feedback_docs + negative_docs = "
                    + (feedbackDocs + negativeDocs) + ", " + MAX_DEPTH + "], got [" + negativeDepth + "]");
        }
    }

    /** A mask of {@code type} keeping {@code ratio} of the dimensions, with the default PRF parameters. */
    public static MaskSpec ofShare(MaskType type, double ratio) {
        return new MaskSpec(
                type, ratio, null, null, DEFAULT_FEEDBACK_DOCS, DEFAULT_NEGATIVE_DOCS, DEFAULT_NEGATIVE_DEPTH, null);
    }

    /** A resolved mask. */
    public static MaskSpec explicit(int[] kept) {
        return new MaskSpec(
                MaskType.EXPLICIT,
                null,
                null,
                null,
                DEFAULT_FEEDBACK_DOCS,
                DEFAULT_NEGATIVE_DOCS,
                DEFAULT_NEGATIVE_DEPTH,
                kept);
    }

    public static MaskSpec explicit(boolean[] kept) {
        int[] dims = new int[DimensionMasks.count(kept)];
        int n = 0;
        for (int j = 0; j < kept.length; j++) {
            if (kept[j]) {
                dims[n++] = j;
            }
        }
        return explicit(dims);
    }

    public boolean isResolved() {
        return type == MaskType.EXPLICIT;
    }

    /** Whether the request names how many dimensions to keep (a learned mask may leave it to its model). */
    public boolean sizeGiven() {
        return ratio != null || dimensions != null;
    }

    /** How many of {@code dim} dimensions to keep; fails naming [mask.dimensions] when it exceeds {@code dim}. */
    public int keep(int dim) {
        if (dimensions != null) {
            if (dimensions > dim) {
                throw new IllegalArgumentException(
                        "[mask.dimensions] [" + dimensions + "] exceeds the query vector's " + dim + " dimensions");
            }
            return dimensions;
        }
        return DimensionMasks.keep(dim, ratio);
    }

    public MaskSpec(StreamInput in) throws IOException {
        this(
                in.readEnum(MaskType.class),
                in.readOptionalDouble(),
                in.readOptionalVInt(),
                in.readOptionalString(),
                in.readVInt(),
                in.readVInt(),
                in.readVInt(),
                in.readBoolean() ? in.readVIntArray() : null);
    }

    @Override
    public void writeTo(StreamOutput out) throws IOException {
        out.writeEnum(type);
        out.writeOptionalDouble(ratio);
        out.writeOptionalVInt(dimensions);
        out.writeOptionalString(modelId);
        out.writeVInt(feedbackDocs);
        out.writeVInt(negativeDocs);
        out.writeVInt(negativeDepth);
        out.writeBoolean(kept != null);
        if (kept != null) {
            out.writeVIntArray(kept);
        }
    }

    public void toXContent(XContentBuilder builder) throws IOException {
        builder.startObject("mask");
        builder.field("type", type.jsonName());
        if (ratio != null) {
            builder.field("ratio", ratio);
        }
        if (dimensions != null) {
            builder.field("dimensions", dimensions);
        }
        if (modelId != null) {
            builder.field("model_id", modelId);
        }
        if (type.isPseudoRelevanceFeedback()) {
            builder.field("feedback_docs", feedbackDocs);
        }
        if (type == MaskType.ECLIPSE_PRF) {
            builder.field("negative_docs", negativeDocs);
            builder.field("negative_depth", negativeDepth);
        }
        if (kept != null) {
            builder.array("kept", kept);
        }
        builder.endObject();
    }

    /** Parses the {@code mask} object; a parameter that does not belong to the type is an error naming it. */
    public static MaskSpec parse(XContentParser parser) throws IOException {
        if (parser.currentToken() != Token.START_OBJECT) {
            throw new ParsingException(
                    parser.getTokenLocation(),
                    "[compressed_knn] [mask] must be an object, got " + JsonParams.sent(parser));
        }
        MaskType type = null;
        Double ratio = null;
        Integer dimensions = null;
        String modelId = null;
        Integer feedbackDocs = null;
        Integer negativeDocs = null;
        Integer negativeDepth = null;
        int[] kept = null;
        for (Token token = parser.nextToken(); token != Token.END_OBJECT; token = parser.nextToken()) {
            String name = parser.currentName();
            parser.nextToken();
            switch (name) {
                case "type" -> type = MaskType.fromJson(JsonParams.string(parser, "mask.type"));
                case "ratio" -> ratio = JsonParams.number(parser, "mask.ratio").doubleValue();
                case "dimensions" -> dimensions = JsonParams.wholeNumber(parser, "mask.dimensions");
                case "model_id" -> modelId = JsonParams.string(parser, "mask.model_id");
                case "feedback_docs" -> feedbackDocs = JsonParams.wholeNumber(parser, "mask.feedback_docs");
                case "negative_docs" -> negativeDocs = JsonParams.wholeNumber(parser, "mask.negative_docs");
                case "negative_depth" -> negativeDepth = JsonParams.wholeNumber(parser, "mask.negative_depth");
                case "kept" -> kept = parseInts(parser);
                default ->
                    throw new ParsingException(
                            parser.getTokenLocation(), "[mask] has unknown parameter [" + name + "]");
            }
        }
        if (type == null) {
            throw new ParsingException(parser.getTokenLocation(), "[mask] requires [type]");
        }
        if (type.isPseudoRelevanceFeedback() == false && feedbackDocs != null) {
            throw new IllegalArgumentException(
                    "[mask.feedback_docs] is only for types [dime_prf] and [eclipse_prf], not [" + type.jsonName()
                            + "]");
        }
        if (type != MaskType.ECLIPSE_PRF && (negativeDocs != null || negativeDepth != null)) {
            throw new IllegalArgumentException("[mask." + (negativeDocs != null ? "negative_docs" : "negative_depth")
                    + "] is only for type [eclipse_prf], not [" + type.jsonName() + "]");
        }
        int feedback = feedbackDocs == null ? DEFAULT_FEEDBACK_DOCS : feedbackDocs;
        int negatives = negativeDocs == null ? DEFAULT_NEGATIVE_DOCS : negativeDocs;
        return new MaskSpec(
                type,
                ratio,
                dimensions,
                modelId,
                feedback,
                negatives,
                // deep enough for the documents asked for, unless the user says otherwise
                negativeDepth == null ? Math.max(DEFAULT_NEGATIVE_DEPTH, feedback + negatives) : negativeDepth,
                kept);
    }

    private static int[] parseInts(XContentParser parser) throws IOException {
        if (parser.currentToken() != Token.START_ARRAY) {
            throw new IllegalArgumentException("[mask.kept] must be an array of dimension numbers");
        }
        List<Integer> values = new ArrayList<>();
        for (Token token = parser.nextToken(); token != Token.END_ARRAY; token = parser.nextToken()) {
            values.add(JsonParams.wholeNumber(parser, "mask.kept"));
        }
        return values.stream().mapToInt(Integer::intValue).toArray();
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof MaskSpec m
                && type == m.type
                && Objects.equals(ratio, m.ratio)
                && Objects.equals(dimensions, m.dimensions)
                && Objects.equals(modelId, m.modelId)
                && feedbackDocs == m.feedbackDocs
                && negativeDocs == m.negativeDocs
                && negativeDepth == m.negativeDepth
                && Arrays.equals(kept, m.kept);
    }

    @Override
    public int hashCode() {
        return Objects.hash(
                type, ratio, dimensions, modelId, feedbackDocs, negativeDocs, negativeDepth, Arrays.hashCode(kept));
    }
}
