package dev.compress.demo;

import java.io.IOException;
import java.util.List;
import java.util.Map;

/** Sends documents to {@code _bulk} in batches and fails on the first rejected document. */
final class BulkLoader {

    private static final int BATCH = 500;

    private final JsonRest rest;
    private final String path;
    private final StringBuilder batch = new StringBuilder();
    private int pending;
    private int sent;

    /** {@code path} is the bulk endpoint, e.g. {@code /corpus/_bulk} or {@code /corpus/_bulk?pipeline=p}. */
    BulkLoader(JsonRest rest, String path) {
        this.rest = rest;
        this.path = path;
    }

    void add(String id, Map<String, Object> source) throws IOException {
        batch.append(
                        id == null
                                ? "{\"index\":{}}"
                                : "{\"index\":{\"_id\":" + JsonRest.JSON.writeValueAsString(id) + "}}")
                .append('\n');
        batch.append(JsonRest.JSON.writeValueAsString(source)).append('\n');
        if (++pending == BATCH) {
            flush();
        }
    }

    /** Sends what is pending; returns the number of documents sent so far. */
    @SuppressWarnings("unchecked")
    int flush() throws IOException {
        if (pending > 0) {
            Map<String, Object> response = rest.call("POST", path, batch.toString());
            if (Boolean.TRUE.equals(response.get("errors"))) {
                for (Map<String, Object> item : (List<Map<String, Object>>) response.get("items")) {
                    Map<String, Object> result =
                            (Map<String, Object>) item.values().iterator().next();
                    if (result.containsKey("error")) {
                        throw new IOException("document [" + result.get("_id") + "] was rejected by " + path + ": "
                                + result.get("error"));
                    }
                }
            }
            sent += pending;
            pending = 0;
            batch.setLength(0);
        }
        return sent;
    }
}
