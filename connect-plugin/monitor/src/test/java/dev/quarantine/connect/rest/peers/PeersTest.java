package dev.quarantine.connect.rest.peers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.common.config.types.Password;
import org.apache.kafka.streams.state.HostInfo;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.quarantine.connect.rest.aggregation.Codec;
import dev.quarantine.connect.rest.MonitorConfig;
import dev.quarantine.connect.rest.http.MonitorException;
import dev.quarantine.connect.rest.aggregation.PartitionFigures;
import dev.quarantine.connect.rest.WorkerSettings;

/** Peers against a small HTTP server on 127.0.0.1 playing the other worker: honest, forged, slow or flooding. */
class PeersTest {

    private static final String SECRET = "peers-test-secret-0123456789-abcdefgh";
    private static final PeerAuth AUTH = new PeerAuth(Optional.of(new Password(SECRET)), Clock.systemUTC());
    private static final PartitionFigures.Query QUERY = new PartitionFigures.Query(null, 0);
    private static final String AGGREGATION = "0a1b2c3d";

    private final List<Map<String, List<String>>> received = new CopyOnWriteArrayList<>();
    private final CountDownLatch released = new CountDownLatch(1);
    private HttpServer server;

    @AfterEach
    void stopServer() {
        released.countDown();
        if (server != null) {
            server.stop(0);
        }
    }

    @Test
    void usesASignedShareAndSendsNoUserCredential() {
        HostInfo peer = serve(exchange -> respondSigned(exchange, AUTH, nonce(exchange), share(0, 1)));

        PartitionFigures share = peers(Duration.ofSeconds(5), 1 << 20).fetch(peer, List.of(0, 1), QUERY, AGGREGATION)
                .join();

        assertThat(share.partitions()).containsExactly(0, 1);
        assertThat(received).singleElement().satisfies(headers -> assertThat(headers.keySet())
                .noneMatch(name -> name.equalsIgnoreCase("Authorization"))
                .anyMatch(name -> name.equalsIgnoreCase(PeerAuth.SIGNATURE_HEADER)));
    }

    @Test
    void namesTheAggregationItReadsInTheSignedQueryAndAnswers503WhenThePeerRunsAnotherOne() {
        List<String> queries = new CopyOnWriteArrayList<>();
        List<Optional<PeerAuth.Refusal>> verified = new CopyOnWriteArrayList<>();
        HostInfo peer = serve(exchange -> {
            queries.add(exchange.getRequestURI().getRawQuery());
            Map<String, String> headers = new HashMap<>();
            exchange.getRequestHeaders().forEach((name, values) -> headers.put(name.toLowerCase(
                    java.util.Locale.ROOT), values.get(0)));
            verified.add(AUTH.verifyRequest("127.0.0.1:" + exchange.getLocalAddress().getPort(), "GET",
                    exchange.getRequestURI().getRawPath(), exchange.getRequestURI().getRawQuery(), new byte[0],
                    headers));
            byte[] body = "{\"error\":\"another aggregation\"}".getBytes(java.nio.charset.StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add(PeerAuth.SIGNATURE_HEADER, AUTH.signAnswer(nonce(exchange),
                    Peers.OTHER_AGGREGATION, body));
            respond(exchange, Peers.OTHER_AGGREGATION, body);
        });

        assertThatThrownBy(() -> peers(Duration.ofSeconds(5), 1 << 20).fetch(peer, List.of(0), QUERY, AGGREGATION)
                .join()).cause().isInstanceOfSatisfying(MonitorException.class, e -> {
                    assertThat(e.status()).isEqualTo(503);
                    assertThat(e.publicMessage()).contains("do not read the same dead-letter topics yet");
                });
        assertThat(queries).singleElement().asString().contains("aggregation=" + AGGREGATION);
        assertThat(verified).as("the query, aggregation included, is what the signature covers")
                .containsExactly(Optional.empty());
    }

    @Test
    void refusesAnUnsignedShareWith503() {
        HostInfo peer = serve(exchange -> respond(exchange, 200, share(0)));

        assertFailsWith(peers(Duration.ofSeconds(5), 1 << 20), peer, 503);
    }

    @Test
    void refusesAShareSignedWithAnotherSecret() {
        PeerAuth other = new PeerAuth(Optional.of(new Password("another-secret-0123456789-abcdefghij")),
                Clock.systemUTC());
        HostInfo peer = serve(exchange -> respondSigned(exchange, other, nonce(exchange), share(0)));

        assertFailsWith(peers(Duration.ofSeconds(5), 1 << 20), peer, 503);
    }

    @Test
    void refusesAShareSignedForAnotherRequestsNonce() {
        HostInfo peer = serve(exchange -> respondSigned(exchange, AUTH, "a-captured-earlier-nonce", share(0)));

        assertFailsWith(peers(Duration.ofSeconds(5), 1 << 20), peer, 503);
    }

    @Test
    void refusesWith503AnAnswerOfAnotherPeerProtocolEvenWhenSigned() {
        HostInfo peer = serve(exchange -> {
            exchange.getResponseHeaders().set(PeerAuth.PROTOCOL_HEADER, "1");
            respondSigned(exchange, AUTH, nonce(exchange), share(0));
        });

        assertFailsWith(peers(Duration.ofSeconds(5), 1 << 20), peer, 503);
    }

    @Test
    void sendsTheProtocolTimeNonceSenderAndSignatureOfAFreshRequestEachTime() {
        HostInfo peer = serve(exchange -> respond(exchange, 404, new byte[0]));
        Peers peers = peers(Duration.ofSeconds(5), 1 << 20);

        assertFailsWith(peers, peer, 503);
        assertFailsWith(peers, peer, 503);

        assertThat(received).hasSize(2).allSatisfy(headers -> assertThat(headers.keySet()).contains(
                "X-quarantine-peer-protocol", "X-quarantine-peer-time", "X-quarantine-peer-nonce",
                "X-quarantine-peer-sender", "X-quarantine-peer-signature"));
        assertThat(received.get(0).get("X-quarantine-peer-nonce")).isNotEqualTo(
                received.get(1).get("X-quarantine-peer-nonce"));
    }

    @Test
    void sendsARequestTheListenerClosedToMakeRoomAgainOnANewConnection() {
        java.util.concurrent.atomic.AtomicInteger requests = new java.util.concurrent.atomic.AtomicInteger();
        HostInfo peer = serve(exchange -> {
            if (requests.incrementAndGet() == 1) {
                exchange.getResponseHeaders().add("Retry-After", "1");
                exchange.getResponseHeaders().add("Connection", "close");
                respond(exchange, 503, new byte[0]); // as PeerResponses.overload(): unsigned
                return;
            }
            respondSigned(exchange, AUTH, nonce(exchange), share(0));
        });

        PartitionFigures share = peers(Duration.ofSeconds(5), 1 << 20).fetch(peer, List.of(0), QUERY, AGGREGATION)
                .join();

        assertThat(share.partitions()).containsExactly(0);
        assertThat(received).hasSize(2);
        assertThat(received.get(0).get("X-quarantine-peer-nonce")).as("signed afresh")
                .isNotEqualTo(received.get(1).get("X-quarantine-peer-nonce"));
    }

    @Test
    void sendsAnOverloadedRequestAgainOnlyABoundedNumberOfTimes() {
        HostInfo peer = serve(exchange -> respond(exchange, 503, new byte[0]));

        assertFailsWith(peers(Duration.ofSeconds(5), 1 << 20), peer, 503);

        assertThat(received).hasSize(1 + Peers.OVERLOAD_RETRIES);
    }

    @Test
    void givesUpOnASlowBodyAtTheDeadline() {
        HostInfo peer = serve(exchange -> {
            exchange.getResponseHeaders().add(PeerAuth.PROTOCOL_HEADER, PeerSigningInput.PROTOCOL);
            exchange.sendResponseHeaders(200, 1_000);
            exchange.getResponseBody().write(new byte[10]);
            exchange.getResponseBody().flush();
            await(); // the rest of the body never comes
        });

        assertFailsWith(peers(Duration.ofMillis(500), 1 << 20), peer, 503);
    }

    @Test
    void refusesAnAnswerLargerThanTheLimit() {
        HostInfo peer = serve(exchange -> respond(exchange, 200, new byte[200_000]));

        assertFailsWith(peers(Duration.ofSeconds(5), 10_000), peer, 503);
    }

    @Test
    void callsAnUnsignedRefusalOfThisWorkersProofRetryableSinceAnyoneOnThePathCouldSendIt() {
        HostInfo peer = serve(exchange -> respond(exchange, 401, new byte[0]));
        Peers peers = peers(Duration.ofSeconds(5), 1 << 20);

        assertThatThrownBy(() -> peers.fetch(peer, List.of(0), QUERY, AGGREGATION).join()).cause()
                .isInstanceOfSatisfying(MonitorException.class, e -> assertThat(e.status()).isEqualTo(503))
                .hasMessageContaining(MonitorConfig.PEER_SECRET_CONFIG);
    }

    private Peers peers(Duration deadline, long maxBytes) {
        Map<String, Object> worker = new HashMap<>();
        worker.put("group.id", "g");
        worker.put("listeners", "http://127.0.0.1:8083");
        return new Peers(WorkerSettings.from(worker, new MonitorConfig(worker)), AUTH, deadline, maxBytes);
    }

    private static void assertFailsWith(Peers peers, HostInfo peer, int status) {
        assertThatThrownBy(() -> peers.fetch(peer, List.of(0), QUERY, AGGREGATION).join())
                .isInstanceOf(CompletionException.class).cause()
                .isInstanceOfSatisfying(MonitorException.class, e -> assertThat(e.status()).isEqualTo(status));
    }

    private interface Handler {
        void handle(HttpExchange exchange) throws IOException;
    }

    private HostInfo serve(Handler handler) {
        try {
            server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        server.createContext("/", exchange -> {
            received.add(new HashMap<>(exchange.getRequestHeaders()));
            handler.handle(exchange);
        });
        server.setExecutor(java.util.concurrent.Executors.newCachedThreadPool());
        server.start();
        return new HostInfo("127.0.0.1", server.getAddress().getPort());
    }

    private void await() {
        try {
            released.await(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static byte[] share(Integer... partitions) {
        PartitionFigures partial = new PartitionFigures();
        partial.partitions().addAll(List.of(partitions));
        return Codec.encode(partial, PartitionFigures::write);
    }

    /** The nonce of the request {@code exchange} answers. */
    private static String nonce(HttpExchange exchange) {
        return exchange.getRequestHeaders().getFirst(PeerAuth.NONCE_HEADER);
    }

    /** Answers 200 with {@code body}, signed by {@code signer} for {@code nonce}: honest when both are right. */
    private static void respondSigned(HttpExchange exchange, PeerAuth signer, String nonce, byte[] body)
            throws IOException {
        exchange.getResponseHeaders().add(PeerAuth.SIGNATURE_HEADER, signer.signAnswer(nonce, 200, body));
        respond(exchange, 200, body);
    }

    /** Answers as a worker of this protocol does (the protocol header unless the handler set another). */
    private static void respond(HttpExchange exchange, int status, byte[] body) throws IOException {
        if (!exchange.getResponseHeaders().containsKey(PeerAuth.PROTOCOL_HEADER)) {
            exchange.getResponseHeaders().add(PeerAuth.PROTOCOL_HEADER, PeerSigningInput.PROTOCOL);
        }
        exchange.sendResponseHeaders(status, body.length == 0 ? -1 : body.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
        }
    }
}
