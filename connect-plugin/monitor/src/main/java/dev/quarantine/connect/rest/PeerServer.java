package dev.quarantine.connect.rest;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

/**
 * The listener other workers of the aggregation ask for this worker's share ({@code GET /dead-letters/~partials}),
 * apart from the worker's REST API: the worker's REST authentication (whatever extension installs it) would demand a
 * user credential there, and a credential sent to an address taken from the group metadata can reach anyone who
 * joins that group. Here the only proof is the peer signature ({@link PeerAuth}); its address is the Streams
 * application.server. A few threads and a short queue: a flood is dropped, never queued without bound.
 */
final class PeerServer implements AutoCloseable {

    /** The answer to one peer request. */
    record Answer(int status, String signature, Integer retryAfterSeconds, byte[] body) {
    }

    /** Answers one peer request from its decoded query parameters and its proof headers. */
    interface Endpoint {
        Answer answer(Map<String, String> params, String time, String signature);
    }

    private static final Logger log = LoggerFactory.getLogger(PeerServer.class);
    private static final int QUEUE = 64;

    private final HttpServer server;
    private final ThreadPoolExecutor threads;
    private volatile Endpoint endpoint;

    private PeerServer(HttpServer server, ThreadPoolExecutor threads) {
        this.server = server;
        this.threads = threads;
    }

    /** Listens on {@code host} ({@code null}: every interface) and {@code port} (0: any free port). */
    static PeerServer start(String host, int port, int maxThreads) {
        InetSocketAddress address = host == null ? new InetSocketAddress(port) : new InetSocketAddress(host, port);
        ThreadPoolExecutor threads = new ThreadPoolExecutor(maxThreads, maxThreads, 60, TimeUnit.SECONDS,
                new ArrayBlockingQueue<>(QUEUE), runnable -> {
                    Thread thread = new Thread(runnable, "quarantine-dead-letter-monitor-peers");
                    thread.setDaemon(true);
                    return thread;
                }, new ThreadPoolExecutor.DiscardPolicy());
        try {
            HttpServer server = HttpServer.create(address, QUEUE);
            server.setExecutor(threads);
            PeerServer peers = new PeerServer(server, threads);
            server.createContext(Peers.PARTIALS_FULL_PATH, peers::handle);
            server.start();
            log.info("Dead-letter monitor: answering other workers on {}:{}", host == null ? "*" : host,
                    server.getAddress().getPort());
            return peers;
        } catch (IOException e) {
            threads.shutdownNow();
            throw new UncheckedIOException("the dead-letter monitor could not listen on " + address + " for other"
                    + " workers: set " + MonitorConfig.PEER_PORT_CONFIG + " to a free port", e);
        }
    }

    int port() {
        return server.getAddress().getPort();
    }

    /** From now on, requests are answered by {@code endpoint} (before: 503). */
    void serve(Endpoint endpoint) {
        this.endpoint = endpoint;
    }

    /**
     * One peer request, on a thread of the listener: whatever it throws (but a peer gone away) is logged at ERROR
     * with its cause and answered 500; the HTTP server would only close the connection and log it at TRACE.
     */
    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            try {
                respond(exchange);
            } catch (RuntimeException | Error e) {
                log.error("Dead-letter monitor: a request from another worker ({}) failed; answered 500",
                        exchange.getRemoteAddress(), e);
                if (exchange.getResponseCode() == -1) {
                    exchange.sendResponseHeaders(500, -1);
                }
            }
        }
    }

    private void respond(HttpExchange exchange) throws IOException {
        Endpoint current = endpoint;
        if (!"GET".equals(exchange.getRequestMethod()) || !Peers.PARTIALS_FULL_PATH.equals(
                exchange.getRequestURI().getPath())) {
            exchange.sendResponseHeaders(404, -1);
            return;
        }
        if (current == null) {
            exchange.sendResponseHeaders(503, -1);
            return;
        }
        Map<String, String> params;
        try {
            params = params(exchange.getRequestURI().getRawQuery());
        } catch (IllegalArgumentException e) {
            exchange.sendResponseHeaders(400, -1);
            return;
        }
        Answer answer = current.answer(params, exchange.getRequestHeaders().getFirst(PeerAuth.TIME_HEADER),
                exchange.getRequestHeaders().getFirst(PeerAuth.SIGNATURE_HEADER));
        write(exchange, answer);
    }

    private static void write(HttpExchange exchange, Answer answer) throws IOException {
        exchange.getResponseHeaders().add("Content-Type", answer.status() == 200 ? "application/octet-stream"
                : "application/json");
        if (answer.signature() != null) {
            exchange.getResponseHeaders().add(PeerAuth.SIGNATURE_HEADER, answer.signature());
        }
        if (answer.retryAfterSeconds() != null) {
            exchange.getResponseHeaders().add("Retry-After", String.valueOf(answer.retryAfterSeconds()));
        }
        exchange.sendResponseHeaders(answer.status(), answer.body().length == 0 ? -1 : answer.body().length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(answer.body());
        }
    }

    /** The decoded query parameters; of a repeated one the last. */
    static Map<String, String> params(String rawQuery) {
        Map<String, String> params = new LinkedHashMap<>();
        if (rawQuery == null || rawQuery.isEmpty()) {
            return params;
        }
        for (String pair : rawQuery.split("&")) {
            int equals = pair.indexOf('=');
            String name = URLDecoder.decode(equals < 0 ? pair : pair.substring(0, equals), StandardCharsets.UTF_8);
            String value = equals < 0 ? "" : URLDecoder.decode(pair.substring(equals + 1), StandardCharsets.UTF_8);
            params.put(name, value);
        }
        return params;
    }

    @Override
    public void close() {
        server.stop(0);
        threads.shutdownNow();
    }
}
