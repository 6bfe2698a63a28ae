package dev.compress.plugin.model.action;

import org.opensearch.rest.RestRequest;

/**
 * Refuses a body on the model endpoints that change state and read nothing but the path: a body there
 * is an option the user believes applies, such as one model's id sent to the cache-wide {@code
 * _clear_cache}, which would otherwise clear every model.
 */
public final class NoRequestBody {

    private NoRequestBody() {}

    /** Throws a 400 naming the request when {@code request} has a body. */
    public static void check(RestRequest request) {
        if (request.hasContent()) {
            throw new IllegalArgumentException("[" + request.method() + " " + request.path()
                    + "] takes no request body; the model id, if any, goes in the path");
        }
    }
}
