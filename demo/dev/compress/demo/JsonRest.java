package dev.compress.demo;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.apache.hc.core5.http.ContentType;
import org.apache.hc.core5.http.HttpHost;
import org.apache.hc.core5.http.io.entity.StringEntity;
import org.apache.hc.core5.util.Timeout;
import org.opensearch.client.Request;
import org.opensearch.client.Response;
import org.opensearch.client.ResponseException;
import org.opensearch.client.RestClient;

/** JSON calls over the node's REST API; a non-2xx answer becomes an exception carrying the node's error body. */
public final class JsonRest {

    static final ObjectMapper JSON = new ObjectMapper();

    private final RestClient client;

    public JsonRest(RestClient client) {
        this.client = client;
    }

    /**
     * A client for a node on loopback whose answers may be slow: on a loaded two-core machine a batch of
     * searches or a bulk through the pipeline can take longer than the client's default 30 s.
     */
    public static RestClient client(int httpPort) {
        return RestClient.builder(new HttpHost("http", "127.0.0.1", httpPort))
                .setRequestConfigCallback(config -> config.setResponseTimeout(Timeout.ofMinutes(10)))
                .build();
    }

    /** {@code body} is serialised as JSON unless it is already a String (e.g. NDJSON for _bulk). */
    public Map<String, Object> call(String method, String path, Object body) throws IOException {
        Request request = new Request(method, path);
        if (body instanceof String text) {
            ContentType type = path.contains("_bulk") || path.contains("_msearch")
                    ? ContentType.create("application/x-ndjson", StandardCharsets.UTF_8)
                    : ContentType.APPLICATION_JSON;
            request.setEntity(new StringEntity(text, type));
        } else if (body != null) {
            request.setJsonEntity(JSON.writeValueAsString(body));
        }
        Response response;
        try {
            response = client.performRequest(request);
        } catch (ResponseException e) {
            String error = new String(e.getResponse().getEntity().getContent().readAllBytes(), StandardCharsets.UTF_8);
            throw new StatusException(
                    e.getResponse().getStatusLine().getStatusCode(),
                    method + " " + path + " answered "
                            + e.getResponse().getStatusLine().getStatusCode() + ": " + error,
                    e);
        }
        try (InputStream in = response.getEntity().getContent()) {
            return JSON.readValue(in, new TypeReference<Map<String, Object>>() {});
        }
    }

    /** A non-2xx answer. */
    public static final class StatusException extends IOException {
        private final int status;

        StatusException(int status, String message, Throwable cause) {
            super(message, cause);
            this.status = status;
        }

        public int status() {
            return status;
        }
    }
}
