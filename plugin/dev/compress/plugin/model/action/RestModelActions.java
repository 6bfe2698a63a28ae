package dev.compress.plugin.model.action;

import dev.compress.plugin.train.TrainModelRequest;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.json.JsonReadFeature;

import org.opensearch.common.xcontent.LoggingDeprecationHandler;
import org.opensearch.common.xcontent.XContentType;
import org.opensearch.common.xcontent.json.JsonXContentParser;
import org.opensearch.core.xcontent.XContentParser;
import org.opensearch.rest.BaseRestHandler;
import org.opensearch.rest.RestRequest;
import org.opensearch.rest.action.RestStatusToXContentListener;
import org.opensearch.rest.action.RestToXContentListener;
import org.opensearch.search.builder.SearchSourceBuilder;
import org.opensearch.transport.client.node.NodeClient;

import java.io.IOException;
import java.util.List;
import java.util.Map;

import static org.opensearch.rest.RestRequest.Method.DELETE;
import static org.opensearch.rest.RestRequest.Method.GET;
import static org.opensearch.rest.RestRequest.Method.POST;

/** The model REST API: train, get, search, delete and cancel; each maps onto its transport action. */
public final class RestModelActions extends BaseRestHandler {

    static final String BASE = "/_plugins/compress";
    /** As the node's JSON parser reads, but with NaN and Infinity as numbers (see {@link #trainBodyParser}). */
    private static final JsonFactory NON_NUMERIC_JSON = JsonFactory.builder()
        .enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
        .enable(JsonReadFeature.ALLOW_JAVA_COMMENTS)
        .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
        .build();

    @Override
    public String getName() {
        return "compress_models";
    }

    @Override
    public List<Route> routes() {
        return List.of(
            new Route(POST, BASE + "/_train"),
            new Route(POST, BASE + "/models/{model_id}/_train"),
            new Route(GET, BASE + "/models/_search"),
            new Route(POST, BASE + "/models/_search"),
            new Route(GET, BASE + "/models/{model_id}"),
            new Route(DELETE, BASE + "/models/{model_id}"),
            new Route(POST, BASE + "/models/{model_id}/_cancel")
        );
    }

    @Override
    protected RestChannelConsumer prepareRequest(RestRequest request, NodeClient client) throws IOException {
        String modelId = request.param("model_id");
        // dispatch by method and route shape, never by the id: a model id may itself end like a route
        if (request.method() == POST && request.path().endsWith("/_train")) {
            Map<String, Object> body;
            try (XContentParser parser = trainBodyParser(request)) {
                body = TrainModelRequest.readBody(parser);
            }
            return channel -> client.execute(ModelActions.TRAIN, new TrainModelRequest(modelId, body), new RestToXContentListener<>(channel));
        }
        if (modelId == null) {
            SearchSourceBuilder source = new SearchSourceBuilder();
            if (request.hasContentOrSourceParam()) {
                source.parseXContent(request.contentOrSourceParamParser());
            }
            return channel -> client.execute(ModelActions.SEARCH, new SearchModelsRequest(source), new RestToXContentListener<>(channel));
        }
        if (request.method() == POST) {
            return channel -> client.execute(ModelActions.CANCEL, new ModelIdRequest(modelId, false), new RestStatusToXContentListener<>(channel));
        }
        if (request.method() == DELETE) {
            return channel -> client.execute(ModelActions.DELETE, new ModelIdRequest(modelId, false), new RestToXContentListener<>(channel));
        }
        boolean weights = request.paramAsBoolean("include_weights", false);
        return channel -> client.execute(ModelActions.GET, new ModelIdRequest(modelId, weights), new RestToXContentListener<>(channel));
    }

    /**
     * JSON has no NaN or Infinity, and its parser refuses them in its own words, naming neither the
     * field nor the value: a {@code _train} body in JSON is read with them let through, so
     * {@link TrainModelRequest#readBody} can name the field that holds one. Other content types are
     * read by the node's own parsers.
     */
    private static XContentParser trainBodyParser(RestRequest request) throws IOException {
        if (request.hasContent() && request.getMediaType() == XContentType.JSON) {
            JsonParser json = NON_NUMERIC_JSON.createParser(request.content().streamInput());
            return new JsonXContentParser(request.getXContentRegistry(), LoggingDeprecationHandler.INSTANCE, json);
        }
        return request.contentParser();
    }
}
