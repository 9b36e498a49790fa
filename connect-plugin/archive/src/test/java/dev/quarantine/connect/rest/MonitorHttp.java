package dev.quarantine.connect.rest;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpHeaders;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/** GET requests to a worker's REST API that keep the status, headers and JSON body, for asserting on all three. */
final class MonitorHttp {

    private static final ObjectMapper JSON = new ObjectMapper();
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    /** One answer. */
    record Answer(int status, String retryAfter, JsonNode body, String text, HttpHeaders headers) {
    }

    Answer get(String baseUrl, String path, String authorization) {
        return get(baseUrl, path, authorization == null ? Map.of() : Map.of("Authorization", authorization));
    }

    /** A GET with these headers; fails if no answer comes within 30 s (a monitor answer is never that slow). */
    Answer get(String baseUrl, String path, Map<String, String> headers) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(baseUrl + path))
                .timeout(Duration.ofSeconds(30)).GET().header("Accept", "application/json");
        headers.forEach(request::header);
        try {
            HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
            JsonNode body = null;
            try {
                body = response.body().isBlank() ? null : JSON.readTree(response.body());
            } catch (IOException e) {
                // not JSON (for example the worker's own 401 page): kept as text
            }
            return new Answer(response.statusCode(), response.headers().firstValue("Retry-After").orElse(null), body,
                    response.body(), response.headers());
        } catch (IOException e) {
            throw new UncheckedIOException("GET " + baseUrl + path + " failed (no answer in 30 s?)", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted during GET " + path, e);
        }
    }
}
