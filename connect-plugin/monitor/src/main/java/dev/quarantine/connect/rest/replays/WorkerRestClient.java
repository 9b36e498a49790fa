package dev.quarantine.connect.rest.replays;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.quarantine.replay.letters.HeaderText;
import dev.quarantine.connect.rest.http.MonitorException;
import dev.quarantine.connect.rest.http.BoundedBody;

/**
 * Calls this worker's own REST API (Connect's {@code /connectors}) on behalf of the caller of a monitor endpoint,
 * with the caller's {@code Authorization} header: whatever the worker's REST authentication allows the caller is
 * what the call may do, and nothing more. A follower forwards to the leader as for any client.
 */
public final class WorkerRestClient {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final long MAX_ANSWER_BYTES = 1 << 20;
    /** What {@link #probeCreateConnector} appends to the name in its config, so that Connect refuses it. */
    static final String MISMATCHED_NAME_SUFFIX = "-not-this-one";
    /** How long a call is sent again while the worker answers that it is rebalancing. */
    static final Duration REBALANCE_WAIT = Duration.ofSeconds(10);

    /** Connect's answer: its status and body. */
    record Answer(int status, String body) {
        boolean ok() {
            return status / 100 == 2;
        }

        /**
         * Connect's refusal while its group rebalances: 409 ("... in progress", "a conflicting operation (e.g. worker
         * rebalance)", "stale configuration") or 500 for its RebalanceNeededException ("a rebalance is expected"),
         * which its exception mapper does not map; never the 409 of a connector that exists.
         */
        boolean rebalancing() {
            if (status != 409 && status != 500) {
                return false;
            }
            String message = message().toLowerCase(java.util.Locale.ROOT);
            return message.contains("rebalanc") || message.contains("stale configuration");
        }

        /** Connect's own error message ({@code {"error_code":..,"message":..}}), else the body, bounded. */
        String message() {
            try {
                Object message = JSON.readValue(body, new TypeReference<Map<String, Object>>() { }).get("message");
                if (message != null) {
                    return HeaderText.decode(message.toString().getBytes(StandardCharsets.UTF_8),
                            HeaderText.MAX_MESSAGE_CHARS);
                }
            } catch (JsonProcessingException | RuntimeException e) {
                // not Connect's error body: the body itself
            }
            return HeaderText.decode(body.getBytes(StandardCharsets.UTF_8), HeaderText.MAX_MESSAGE_CHARS);
        }
    }

    private final String baseUrl;
    private final Duration timeout;
    private final HttpClient http;

    public WorkerRestClient(String baseUrl, Duration timeout) {
        this.baseUrl = baseUrl;
        this.timeout = timeout;
        this.http = HttpClient.newBuilder().connectTimeout(timeout).followRedirects(HttpClient.Redirect.NEVER).build();
    }

    Answer putConnectorConfig(String connector, Map<String, String> config, Optional<String> authorization) {
        try {
            return send(request(connector + "/config", authorization).header("Content-Type", "application/json")
                    .PUT(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(config))));
        } catch (JsonProcessingException e) {
            throw MonitorException.fatal("could not write a connector config as JSON", e);
        }
    }

    /** The connector's config, empty when Connect does not know it (404). */
    Optional<Map<String, String>> connectorConfig(String connector, Optional<String> authorization) {
        Answer answer = send(request(connector + "/config", authorization).GET());
        if (answer.status() == 404) {
            return Optional.empty();
        }
        requireOk(answer, "read the config of connector " + connector);
        try {
            return Optional.of(JSON.readValue(answer.body(), new TypeReference<Map<String, String>>() { }));
        } catch (JsonProcessingException e) {
            throw MonitorException.fatal("the worker answered the config of " + connector + " in an unknown form", e);
        }
    }

    /**
     * Creates a connector with {@code POST /connectors}, which Connect refuses (409) when one of that name exists: two
     * callers creating the same name never both succeed, nor does one change the other's config.
     */
    Answer createConnector(String connector, Map<String, String> config, Optional<String> authorization) {
        try {
            HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(baseUrl + "/connectors")).timeout(timeout)
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(Map.of("name", connector,
                            "config", config))));
            authorization.ifPresent(value -> request.header("Authorization", value));
            return send(request);
        } catch (JsonProcessingException e) {
            throw MonitorException.fatal("could not write a connector config as JSON", e);
        }
    }

    /**
     * Asks whether the caller may create connectors, creating none: {@code POST /connectors} whose config names
     * another connector than the request, which Connect's resource refuses (400, "Connector name configuration (...)
     * doesn't match ...") only once the worker's authentication and any authorizing filter let the call through; a
     * caller without the right gets their 401/403. The name is {@code probe}; nothing of that name is created.
     */
    Answer probeCreateConnector(String probe, Optional<String> authorization) {
        try {
            HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(baseUrl + "/connectors")).timeout(timeout)
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(Map.of("name", probe,
                            "config", Map.of("name", probe + MISMATCHED_NAME_SUFFIX)))));
            authorization.ifPresent(value -> request.header("Authorization", value));
            return send(request);
        } catch (JsonProcessingException e) {
            throw MonitorException.fatal("could not write a connector config as JSON", e);
        }
    }

    /** Every connector's config by name ({@code GET /connectors?expand=info}), read with the caller's rights. */
    Map<String, Map<String, String>> connectorConfigs(Optional<String> authorization) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(baseUrl + "/connectors?expand=info"))
                .timeout(timeout).GET();
        authorization.ifPresent(value -> request.header("Authorization", value));
        Answer answer = send(request);
        requireOk(answer, "list the connectors");
        try {
            Map<String, Map<String, Map<String, Object>>> expanded = JSON.readValue(answer.body(),
                    new TypeReference<Map<String, Map<String, Map<String, Object>>>>() { });
            Map<String, Map<String, String>> configs = new java.util.TreeMap<>();
            expanded.forEach((name, info) -> {
                Object config = info.getOrDefault("info", Map.of()).get("config");
                if (config instanceof Map<?, ?> map) {
                    Map<String, String> strings = new java.util.HashMap<>();
                    map.forEach((k, v) -> strings.put(String.valueOf(k), String.valueOf(v)));
                    configs.put(name, strings);
                }
            });
            return configs;
        } catch (JsonProcessingException e) {
            throw MonitorException.fatal("the worker answered the list of connectors in an unknown form", e);
        }
    }

    Answer deleteConnector(String connector, Optional<String> authorization) {
        return send(request(connector, authorization).DELETE());
    }

    /** Fails with Connect's status and message unless the answer is 2xx. */
    static void requireOk(Answer answer, String what) {
        if (!answer.ok()) {
            throw MonitorException.fromWorker(answer.status(), "the worker refused to " + what + ": "
                    + answer.message());
        }
    }

    private HttpRequest.Builder request(String connectorPath, Optional<String> authorization) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(baseUrl + "/connectors/"
                + URLEncoder.encode(connectorPath.split("/", 2)[0], StandardCharsets.UTF_8)
                + (connectorPath.contains("/") ? "/" + connectorPath.split("/", 2)[1] : ""))).timeout(timeout);
        authorization.ifPresent(value -> request.header("Authorization", value));
        return request;
    }

    /**
     * Sends the request; an answer 409 that says the worker is rebalancing (Connect answers so while its group
     * rebalances, as it does right after a connector is created or deleted: nothing was done) is sent again, waiting
     * 100 ms doubling to 1 s, for at most {@link #REBALANCE_WAIT}; then that 409 is the answer.
     */
    private Answer send(HttpRequest.Builder request) {
        long deadline = System.nanoTime() + REBALANCE_WAIT.toNanos();
        long backoffMs = 100;
        while (true) {
            Answer answer = sendOnce(request);
            if (!answer.rebalancing() || System.nanoTime() + backoffMs * 1_000_000 > deadline) {
                return answer;
            }
            try {
                Thread.sleep(backoffMs);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return answer;
            }
            backoffMs = Math.min(1_000, backoffMs * 2);
        }
    }

    private Answer sendOnce(HttpRequest.Builder request) {
        try {
            HttpResponse<byte[]> response = http.send(request.build(), BoundedBody.handler(MAX_ANSWER_BYTES));
            return new Answer(response.statusCode(), new String(response.body(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw MonitorException.unavailable("this worker's own REST API did not answer the monitor's call; retry"
                    + " later", "this worker's REST API did not answer at " + baseUrl, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw MonitorException.unavailable("the monitor's call to this worker's own REST API was interrupted;"
                    + " retry later", "interrupted while calling this worker's REST API", e);
        }
    }
}
