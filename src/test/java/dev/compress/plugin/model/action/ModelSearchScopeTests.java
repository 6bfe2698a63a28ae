package dev.compress.plugin.model.action;

import java.io.IOException;
import java.util.List;
import org.opensearch.common.settings.Settings;
import org.opensearch.common.xcontent.json.JsonXContent;
import org.opensearch.core.xcontent.DeprecationHandler;
import org.opensearch.core.xcontent.NamedXContentRegistry;
import org.opensearch.core.xcontent.XContentParser;
import org.opensearch.search.SearchModule;
import org.opensearch.search.builder.SearchSourceBuilder;
import org.opensearch.test.OpenSearchTestCase;

public class ModelSearchScopeTests extends OpenSearchTestCase {

    private static final NamedXContentRegistry REGISTRY =
            new NamedXContentRegistry(new SearchModule(Settings.EMPTY, List.of()).getNamedXContents());

    private static SearchSourceBuilder parse(String json) throws IOException {
        try (XContentParser parser = JsonXContent.jsonXContent.createParser(
                REGISTRY, DeprecationHandler.THROW_UNSUPPORTED_OPERATION, json)) {
            return SearchSourceBuilder.fromXContent(parser);
        }
    }

    private static String refused(String json) throws IOException {
        SearchSourceBuilder source = parse(json);
        return expectThrows(IllegalArgumentException.class, () -> ModelSearchScope.check(source))
                .getMessage();
    }

    public void testSearchesOfTheModelDocumentsPass() throws IOException {
        ModelSearchScope.check(parse("{}"));
        ModelSearchScope.check(parse("{\"query\":{\"bool\":{\"filter\":[{\"term\":{\"method\":\"dive\"}},"
                + "{\"range\":{\"created_at\":{\"gte\":0}}}],\"must\":{\"match\":{\"description\":\"scifact\"}},"
                + "\"should\":{\"constant_score\":{\"filter\":{\"terms\":{\"state\":[\"created\"]}}}}}},"
                + "\"post_filter\":{\"exists\":{\"field\":\"error\"}},\"sort\":[{\"created_at\":\"desc\"}],"
                + "\"aggs\":{\"by_state\":{\"terms\":{\"field\":\"state\"},\"aggs\":{\"latest\":{\"top_hits\":"
                + "{\"size\":1}},\"newest\":{\"max\":{\"field\":\"created_at\"}}}}},\"size\":5,\"from\":0,"
                + "\"track_total_hits\":true}"));
    }

    public void testPartsThatReachPastTheModelDocumentsAreRefused() throws IOException {
        // a global aggregation ignores the query: its top hits would be the chunks that hold model files
        String global = refused("{\"size\":0,\"aggs\":{\"g\":{\"global\":{},\"aggs\":{\"c\":{\"top_hits\":{}}}}}}");
        assertTrue(global, global.contains("[aggs.g] aggregation type [global] is not supported in a model search"));
        String below = refused("{\"aggs\":{\"s\":{\"terms\":{\"field\":\"state\"},"
                + "\"aggs\":{\"sig\":{\"significant_terms\":{\"field\":\"method\"}}}}}}");
        assertTrue(below, below.contains("[aggs.s.sig] aggregation type [significant_terms]"));
        String script = refused("{\"query\":{\"bool\":{\"filter\":{\"script\":{\"script\":\"true\"}}}}}");
        assertTrue(script, script.contains("[query] query type [script] is not supported in a model search"));
        String mlt =
                refused("{\"post_filter\":{\"more_like_this\":{\"like\":[{\"_index\":\"other\",\"_id\":\"1\"}]}}}");
        assertTrue(mlt, mlt.contains("[post_filter] query type [more_like_this]"));
        String lookup =
                refused("{\"query\":{\"terms\":{\"model_id\":{\"index\":\"other\",\"id\":\"1\",\"path\":\"ids\"}}}}");
        assertTrue(lookup, lookup.contains("a terms lookup in [query] is not supported in a model search"));
        String suggest = refused("{\"suggest\":{\"s\":{\"text\":\"x\",\"term\":{\"field\":\"model_id\"}}}}");
        assertTrue(suggest, suggest.contains("[suggest] is not supported"));
        assertTrue(refused("{\"pit\":{\"id\":\"abc\"}}").contains("[pit] is not supported"));
        assertTrue(refused("{\"search_pipeline\":{\"request_processors\":[]}}").contains("[search_pipeline]"));
        assertTrue(refused("{\"rescore\":{\"query\":{\"rescore_query\":{\"match_all\":{}}}}}")
                .contains("[rescore]"));
    }
}
