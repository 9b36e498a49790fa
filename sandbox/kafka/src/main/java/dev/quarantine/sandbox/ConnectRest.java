package dev.quarantine.sandbox;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * The one client of the sandbox for a Connect worker's REST API (and the monitor's peer listener): connector
 * management, which retries while the worker answers 409 (a rebalance in progress), and single requests that keep
 * the status, headers and body of any answer, for tests asserting on all three. Used by the tests, the quickstart
 * and the benchmarks; only the benchmarks' open-loop load generator sends requests of its own.
 */
public final class ConnectRest {

    private static final Duration CALL_TIMEOUT = Duration.ofSeconds(120);
    private static final Duration ANSWER_TIMEOUT = Duration.ofSeconds(30);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private final String baseUrl;
    private final String authorization;

    private ConnectRest(String baseUrl, String authorization) {
        this.baseUrl = baseUrl;
        this.authorization = authorization;
    }

    /** A client of {@code baseUrl} ({@code http://host:port}) sending no credentials. */
    public static ConnectRest at(String baseUrl) {
        return new ConnectRest(baseUrl, null);
    }

    /** This client, every request carrying {@code authorization} as its {@code Authorization} header. */
    public ConnectRest withAuthorization(String authorization) {
        return new ConnectRest(baseUrl, authorization);
    }

    /** The {@code Authorization} header value of HTTP basic authentication. */
    public static String basicAuth(String user, String password) {
        return "Basic " + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
    }

    public String baseUrl() {
        return baseUrl;
    }

    /** One answer, whatever its status: the body parsed as JSON when it is JSON ({@code null} otherwise). */
    public record Answer(int status, HttpHeaders headers, String text, JsonNode body) {

        /** The {@code Retry-After} header, or {@code null}. */
        public String retryAfter() {
            return headers.firstValue("Retry-After").orElse(null);
        }

        @Override
        public String toString() {
            return status + " " + text;
        }
    }

    /** One GET with this client's credentials; fails if no answer comes within 30 s. */
    public Answer get(String path) {
        return get(path, authorization == null ? Map.of() : Map.of("Authorization", authorization));
    }

    /** One GET with exactly {@code headers} (this client's credentials only if among them). */
    public Answer get(String path, Map<String, String> headers) {
        return exchange("GET", path, null, headers, ANSWER_TIMEOUT);
    }

    /** The JSON body of a GET answered 200. */
    public JsonNode getJson(String path) {
        return call("GET", path, null, 200);
    }

    /** Whether the worker answers {@code GET /connectors} with 200 (false while it is not listening yet). */
    public boolean answers() {
        try {
            return exchange("GET", "/connectors", null, credentials(), Duration.ofSeconds(5)).status() == 200;
        } catch (UncheckedIOException notListeningYet) {
            return false;
        }
    }

    /** Creates or updates a connector ({@code PUT /connectors/{name}/config}); returns the worker's answer. */
    public JsonNode createConnector(String name, Map<String, String> config) {
        return call("PUT", "/connectors/" + encode(name) + "/config", config, 201, 200);
    }

    /**
     * Validates a connector config ({@code PUT /connector-plugins/{plugin}/config/validate}); the answer has
     * {@code error_count} and, per setting, {@code configs[].value.errors}.
     */
    public JsonNode validate(String pluginClass, Map<String, String> config) {
        return call("PUT", "/connector-plugins/" + encode(pluginClass) + "/config/validate", config, 200);
    }

    /** {@code GET /connectors/{name}/status}. */
    public JsonNode status(String name) {
        return call("GET", "/connectors/" + encode(name) + "/status", null, 200);
    }

    /** {@code DELETE /connectors/{name}}. */
    public void deleteConnector(String name) {
        call("DELETE", "/connectors/" + encode(name), null, 204, 200);
    }

    /** {@code PUT /connectors/{name}/pause}: its tasks stop consuming, and stay paused when they move. */
    public void pauseConnector(String name) {
        call("PUT", "/connectors/" + encode(name) + "/pause", null, 202, 204, 200);
    }

    /** {@code POST /connectors/{name}/restart?includeTasks=true}. */
    public void restartConnector(String name) {
        call("POST", "/connectors/" + encode(name) + "/restart?includeTasks=true", null, 202, 204, 200);
    }

    /** The errors the validate endpoint reports on each setting that has any. */
    public static Map<String, List<String>> validationErrors(JsonNode validation) {
        Map<String, List<String>> errors = new LinkedHashMap<>();
        for (JsonNode config : validation.path("configs")) {
            JsonNode value = config.path("value");
            List<String> messages = new ArrayList<>();
            value.path("errors").forEach(e -> messages.add(e.asText()));
            if (!messages.isEmpty()) {
                errors.put(value.path("name").asText(), messages);
            }
        }
        return errors;
    }

    /**
     * A request answered with one of {@code expected}, asked again while the worker answers 409 (a rebalance is in
     * progress) for up to 120 s; any other status fails naming it and the answer.
     */
    public JsonNode call(String method, String path, Object body, int... expected) {
        Map<String, String> headers = new LinkedHashMap<>(credentials());
        headers.put("Content-Type", "application/json");
        Answer answer = Await.value(() -> method + " " + path + " answered other than 409 (a rebalance)", CALL_TIMEOUT,
                () -> {
                    Answer each = exchange(method, path, body, headers, CALL_TIMEOUT);
                    return each.status() == 409 ? null : each;
                });
        if (Arrays.stream(expected).noneMatch(code -> code == answer.status())) {
            throw new IllegalStateException(method + " " + path + " answered " + answer);
        }
        return answer.body() == null ? JSON.nullNode() : answer.body();
    }

    private Map<String, String> credentials() {
        return authorization == null ? Map.of() : Map.of("Authorization", authorization);
    }

    private Answer exchange(String method, String path, Object body, Map<String, String> headers, Duration timeout) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(baseUrl + path)).timeout(timeout)
                .header("Accept", "application/json").method(method, body == null
                        ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(json(body)));
        headers.forEach(request::header);
        try {
            HttpResponse<String> response = HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
            return new Answer(response.statusCode(), response.headers(), response.body(), parse(response.body()));
        } catch (IOException e) {
            throw new UncheckedIOException(method + " " + baseUrl + path + " failed (no answer in "
                    + timeout.toSeconds() + " s?)", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted during " + method + " " + path, e);
        }
    }

    private static JsonNode parse(String text) {
        try {
            return text == null || text.isBlank() ? null : JSON.readTree(text);
        } catch (IOException e) {
            return null; // not JSON (for example Jetty's own error page): the text is kept
        }
    }

    private static String json(Object body) {
        try {
            return JSON.writeValueAsString(body);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("not JSON-writable: " + body.getClass().getName(), e);
        }
    }

    private static String encode(String segment) {
        return URLEncoder.encode(segment, StandardCharsets.UTF_8).replace("+", "%20");
    }
}
