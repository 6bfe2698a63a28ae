package dev.compress.bench;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/**
 * The benchmark's HTTP client for a node: the JDK's, HTTP/1.1 with kept-alive connections. Not
 * OpenSearch's {@code RestClient}: as built here (3.6.0, Apache HttpAsyncClient 5.6) it opens its
 * sockets without TCP_NODELAY (strace shows no such setsockopt), so a request whose body is written
 * after its headers waits for the server's delayed ACK (Linux delays an ACK by at least 40 ms),
 * which would swamp the millisecond latencies the {@code node} section measures.
 */
final class NodeHttp {

    private final HttpClient client = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10))
            .build();
    private final String base;

    NodeHttp(int port) {
        this.base = "http://127.0.0.1:" + port;
    }

    /** The response body of {@code method path} with a JSON {@code body} (or none); a status >= 300 is an error. */
    String call(String method, String path, String body) throws IOException {
        return call(method, path, body, Duration.ofMinutes(10));
    }

    /** The same, waiting up to {@code timeout} for the answer. */
    String call(String method, String path, String body, Duration timeout) throws IOException {
        HttpRequest request = HttpRequest.newBuilder(URI.create(base + path))
                .timeout(timeout)
                .header("Content-Type", "application/json")
                .method(
                        method,
                        body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body))
                .build();
        try {
            HttpResponse<String> response = client.send(request, HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() >= 300) {
                throw new IOException(
                        method + " " + path + " answered " + response.statusCode() + ": " + response.body());
            }
            return response.body();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException(e);
        }
    }
}
