package dev.compress.plugin.query;

import static dev.compress.plugin.query.CompressedKnnQueryBuilder.NAME;

import dev.compress.plugin.query.mask.MaskSpec;
import dev.compress.plugin.stats.CompressCounters;
import java.io.IOException;
import org.opensearch.core.common.ParsingException;
import org.opensearch.core.xcontent.XContentParser;
import org.opensearch.index.query.AbstractQueryBuilder;
import org.opensearch.index.query.QueryBuilder;

/** Parses the JSON of a {@code compressed_knn} query into a {@link CompressedKnnQueryBuilder}. */
public final class CompressedKnnQueryParser {

    private CompressedKnnQueryParser() {}

    /**
     * Parses a query on the node that received it (the coordinating node of a search): a query with
     * a mask counts its mask type here, once per search, as shards only ever see explicit masks.
     */
    public static CompressedKnnQueryBuilder parse(XContentParser parser, CompressCounters counters) throws IOException {
        String field = null;
        float[] vector = null;
        Integer k = null;
        Float minScore = null;
        Float maxDistance = null;
        Integer numCandidates = null;
        RescoreOptions rescore = null;
        QueryBuilder filter = null;
        boolean ignoreUnmapped = false;
        boolean expandNestedDocs = false;
        String modelId = null;
        Integer modelDimension = null;
        MaskSpec mask = null;
        float boost = AbstractQueryBuilder.DEFAULT_BOOST;
        String queryName = null;
        XContentParser.Token token;
        while ((token = parser.nextToken()) != XContentParser.Token.END_OBJECT) {
            if (token != XContentParser.Token.FIELD_NAME) {
                throw new ParsingException(
                        parser.getTokenLocation(), "[" + NAME + "] expects named parameters, got [" + token + "]");
            }
            String name = parser.currentName();
            parser.nextToken();
            try {
                switch (name) {
                    case "field" -> field = JsonParams.string(parser, "field");
                    case "vector" -> vector = QueryVectorParser.parse(parser);
                    case "k" -> k = JsonParams.wholeNumber(parser, "k");
                    case "min_score" ->
                        minScore = JsonParams.number(parser, "min_score").floatValue();
                    case "max_distance" ->
                        maxDistance = JsonParams.number(parser, "max_distance").floatValue();
                    case "num_candidates" -> numCandidates = JsonParams.wholeNumber(parser, "num_candidates");
                    case "rescore" -> rescore = RescoreOptions.parse(parser);
                    case "filter" -> {
                        if (parser.currentToken() != XContentParser.Token.START_OBJECT) {
                            throw new IllegalArgumentException(
                                    "expects a query object, got [" + parser.currentToken() + "]");
                        }
                        filter = AbstractQueryBuilder.parseInnerQueryBuilder(parser);
                    }
                    case "ignore_unmapped" -> ignoreUnmapped = JsonParams.bool(parser, "ignore_unmapped");
                    case "expand_nested_docs" -> expandNestedDocs = JsonParams.bool(parser, "expand_nested_docs");
                    case "model_id" -> modelId = JsonParams.string(parser, "model_id");
                    case "model_dimension" -> modelDimension = JsonParams.wholeNumber(parser, "model_dimension");
                    case "mask" -> mask = MaskSpec.parse(parser);
                    case "boost" -> boost = JsonParams.number(parser, "boost").floatValue();
                    case "_name" -> queryName = JsonParams.string(parser, "_name");
                    default ->
                        throw new ParsingException(
                                parser.getTokenLocation(), "[" + NAME + "] has unknown parameter [" + name + "]");
                }
            } catch (IllegalArgumentException e) {
                throw new ParsingException(
                        parser.getTokenLocation(), "[" + NAME + "] bad [" + name + "]: " + e.getMessage(), e);
            }
        }
        CompressedKnnQueryBuilder query;
        try {
            query = CompressedKnnQueryBuilder.builder()
                    .field(field)
                    .vector(vector)
                    .k(k)
                    .minScore(minScore)
                    .maxDistance(maxDistance)
                    .numCandidates(numCandidates)
                    .rescore(rescore)
                    .filter(filter)
                    .ignoreUnmapped(ignoreUnmapped)
                    .expandNestedDocs(expandNestedDocs)
                    .modelId(modelId)
                    .modelDimension(modelDimension)
                    .mask(mask)
                    .counters(counters)
                    .build()
                    .boost(boost)
                    .queryName(queryName);
        } catch (IllegalArgumentException e) {
            throw new ParsingException(parser.getTokenLocation(), e.getMessage(), e);
        }
        if (mask != null) {
            counters.maskRequested(mask.type());
        }
        return query;
    }
}
