package dev.compress.plugin.train;

import static org.opensearch.rest.RestRequest.Method.POST;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import dev.compress.plugin.model.action.ModelActions;
import dev.compress.plugin.model.action.ModelRoutes;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import org.opensearch.common.xcontent.LoggingDeprecationHandler;
import org.opensearch.common.xcontent.XContentType;
import org.opensearch.common.xcontent.json.JsonXContentParser;
import org.opensearch.core.xcontent.XContentParser;
import org.opensearch.rest.BaseRestHandler;
import org.opensearch.rest.RestRequest;
import org.opensearch.rest.action.RestToXContentListener;
import org.opensearch.transport.client.node.NodeClient;

/**
 * {@code POST _plugins/compress/_train} (a generated model id) and
 * {@code POST _plugins/compress/models/{model_id}/_train}: reads the body ({@link TrainModelRequest#readBody})
 * and hands it to {@link TransportTrainModelAction}, which checks the rest.
 */
public final class RestTrainModelHandler extends BaseRestHandler {

    /** As the node's JSON parser reads, but with NaN and Infinity as numbers (see {@link #trainBodyParser}). */
    private static final JsonFactory NON_NUMERIC_JSON = JsonFactory.builder()
            .enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
            .enable(JsonReadFeature.ALLOW_JAVA_COMMENTS)
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .build();

    @Override
    public String getName() {
        return "compress_train_model";
    }

    @Override
    public List<Route> routes() {
        return List.of(new Route(POST, ModelRoutes.BASE + "/_train"), new Route(POST, ModelRoutes.MODEL + "/_train"));
    }

    @Override
    protected RestChannelConsumer prepareRequest(RestRequest request, NodeClient client) throws IOException {
        String modelId = request.param(ModelRoutes.MODEL_ID);
        Map<String, Object> body;
        try (XContentParser parser = trainBodyParser(request)) {
            body = TrainModelRequest.readBody(parser);
        } catch (JsonProcessingException e) {
            // the parser's own limits (a number of over a thousand digits, nesting over a thousand deep)
            throw new IllegalArgumentException("the _train body cannot be read: " + e.getOriginalMessage(), e);
        }
        TrainModelRequest train = new TrainModelRequest(modelId, body);
        return channel -> client.execute(ModelActions.TRAIN, train, new RestToXContentListener<>(channel));
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
