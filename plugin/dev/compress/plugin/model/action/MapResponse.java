package dev.compress.plugin.model.action;

import org.opensearch.core.action.ActionResponse;
import org.opensearch.core.common.io.stream.StreamInput;
import org.opensearch.core.common.io.stream.StreamOutput;
import org.opensearch.core.rest.RestStatus;
import org.opensearch.common.xcontent.StatusToXContentObject;
import org.opensearch.core.xcontent.XContentBuilder;

import java.io.IOException;
import java.util.Map;

/** A JSON object answer with its HTTP status, for the model APIs. */
public final class MapResponse extends ActionResponse implements StatusToXContentObject {

    private final Map<String, Object> body;
    private final RestStatus status;

    public MapResponse(Map<String, Object> body, RestStatus status) {
        this.body = body;
        this.status = status;
    }

    public MapResponse(StreamInput in) throws IOException {
        super(in);
        body = in.readMap();
        status = RestStatus.readFrom(in);
    }

    @Override
    public void writeTo(StreamOutput out) throws IOException {
        out.writeMap(body);
        RestStatus.writeTo(out, status);
    }

    public Map<String, Object> body() {
        return body;
    }

    @Override
    public RestStatus status() {
        return status;
    }

    @Override
    public XContentBuilder toXContent(XContentBuilder builder, Params params) throws IOException {
        return builder.map(body);
    }
}
