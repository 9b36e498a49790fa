package dev.quarantine.connect.rest.replays;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

/**
 * This worker's own REST API ({@code /connectors}) as Kafka Connect 4.4 answers it while its group rebalances, as it
 * does right after a connector is created: {@code POST /connectors} creates the connector (201), the list shows it,
 * but {@code GET /connectors/{name}/config} is refused with Connect's own 500 "a rebalance is expected" for as long
 * as the rebalance lasts; here, until the test ends. On 127.0.0.1 only.
 */
final class RebalancingWorker implements AutoCloseable {

    static final String REBALANCE = "{\"error_code\":500,\"message\":\"Request cannot be completed because a"
            + " rebalance is expected\"}";
    private static final ObjectMapper JSON = new ObjectMapper();

    private final HttpServer server;
    private final Map<String, Map<String, String>> created = new ConcurrentHashMap<>();

    RebalancingWorker() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/connectors", this::handle);
        server.start();
    }

    String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    /** The config of connector {@code name} as the monitor created it. */
    Map<String, String> created(String name) {
        return created.get(name);
    }

    private void handle(HttpExchange exchange) throws IOException {
        String path = exchange.getRequestURI().getPath();
        if (exchange.getRequestMethod().equals("POST") && path.equals("/connectors")) {
            Map<String, Object> request = JSON.readValue(exchange.getRequestBody(),
                    new TypeReference<Map<String, Object>>() { });
            Map<String, String> config = new LinkedHashMap<>();
            ((Map<?, ?>) request.get("config")).forEach((k, v) -> config.put(k.toString(), v.toString()));
            created.put(request.get("name").toString(), config);
            answer(exchange, 201, JSON.writeValueAsString(request));
        } else if (exchange.getRequestMethod().equals("GET") && path.equals("/connectors")) {
            Map<String, Object> expanded = new LinkedHashMap<>();
            created.forEach((name, config) -> expanded.put(name, Map.of("info", Map.of("config", config))));
            answer(exchange, 200, JSON.writeValueAsString(expanded));
        } else if (exchange.getRequestMethod().equals("GET") && path.endsWith("/config")) {
            answer(exchange, 500, REBALANCE);
        } else {
            answer(exchange, 404, "{\"error_code\":404,\"message\":\"not here\"}");
        }
    }

    /** Answers {@code exchange} with {@code status} and the JSON {@code body}. */
    static void answer(HttpExchange exchange, int status, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", "application/json");
        exchange.sendResponseHeaders(status, bytes.length);
        exchange.getResponseBody().write(bytes);
        exchange.close();
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
