package dev.quarantine.connect.rest.peers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketAddress;
import java.net.SocketOption;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.channels.spi.SelectorProvider;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.apache.kafka.common.config.ConfigException;
import org.junit.jupiter.api.Test;
import dev.quarantine.connect.rest.MonitorConfig;

/**
 * The peer listener's own behaviour on real loopback sockets: what it answers when an endpoint fails, and what it
 * does with connections that are slow, idle, too many, or well behaved and kept alive.
 */
class PeerServerTest {

    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private static final PeerLimits LIMITS = new PeerLimits(64, 64, Duration.ofSeconds(5), Duration.ofSeconds(5),
            Duration.ofSeconds(30), Duration.ofSeconds(10));
    private static final PeerServer.Endpoint SEVEN = request -> new PeerServer.Answer(200, "signed", null,
            new byte[] {7});
    /** Refuses (401, unsigned) a request without an {@code X-Proof} header, the stand-in for a peer signature. */
    private static final PeerServer.Endpoint PROVING = new PeerServer.Endpoint() {
        @Override
        public PeerServer.Answer answer(PeerServer.Request request) {
            return SEVEN.answer(request);
        }

        @Override
        public Optional<PeerServer.Answer> refusal(PeerServer.Request request) {
            return request.headers().containsKey("x-proof") ? Optional.empty()
                    : Optional.of(PeerResponses.plain(401));
        }
    };
    private static final String PROVEN_REQUEST = "GET " + Peers.PARTIALS_FULL_PATH
            + " HTTP/1.1\r\nX-Proof: yes\r\nConnection: close\r\n\r\n";
    private static final String REQUEST = "GET " + Peers.PARTIALS_FULL_PATH + " HTTP/1.1\r\nHost: x\r\n\r\n";
    /** How long a test waits for the listener to answer or close: a deadline, not a measure of speed. */
    private static final int READ_DEADLINE_MS = 20_000;

    @Test
    void anEndpointFailingWithALinkageErrorIsAnswered500AndTheListenerKeepsAnswering() throws Exception {
        try (PeerServer server = PeerServer.start("127.0.0.1", 0, 1, LIMITS)) {
            server.serve(request -> {
                throw new NoSuchMethodError("KafkaStreams.close(CloseOptions)");
            });

            assertThat(get(server).statusCode()).isEqualTo(500);
            assertThat(get(server).statusCode()).as("a second request, on the listener's one thread").isEqualTo(500);
            server.serve(SEVEN);
            assertThat(get(server).body()).containsExactly(7);
        }
    }

    @Test
    void anEndpointFailingWithARuntimeExceptionIsAnswered500() throws Exception {
        try (PeerServer server = PeerServer.start("127.0.0.1", 0, 1, LIMITS)) {
            server.serve(request -> {
                throw new IllegalStateException("unexpected");
            });

            assertThat(get(server).statusCode()).isEqualTo(500);
        }
    }

    @Test
    void aRequestIsAnsweredWhileConnectionsThatSentOneByteHoldOnOnAListenerOfOneThread() throws Exception {
        List<Socket> idle = new ArrayList<>();
        try (PeerServer server = PeerServer.start("127.0.0.1", 0, 1, LIMITS)) {
            server.serve(SEVEN);
            for (int i = 0; i < 20; i++) {
                idle.add(connect(server, "G"));
            }

            HttpResponse<byte[]> answer = get(server);

            assertThat(answer.statusCode()).isEqualTo(200);
            assertThat(answer.headers().firstValue(PeerAuth.PROTOCOL_HEADER)).contains(PeerSigningInput.PROTOCOL);
            assertThat(answer.headers().firstValue(PeerAuth.SIGNATURE_HEADER)).contains("signed");
        } finally {
            for (Socket socket : idle) {
                socket.close();
            }
        }
    }

    @Test
    void aConnectionBeyondTheCapTakesThePlaceOfTheOldestThatSentNoWholeRequest() throws Exception {
        PeerLimits two = new PeerLimits(2, 64, LIMITS.headTimeout(), LIMITS.bodyTimeout(), LIMITS.idleTimeout(),
                LIMITS.writeTimeout());
        try (PeerServer server = PeerServer.start("127.0.0.1", 0, 1, two);
             Socket first = connect(server, "G"); Socket second = connect(server, "G")) {
            server.serve(SEVEN);
            assertThat(exchange(server, "GET " + Peers.PARTIALS_FULL_PATH + " HTTP/1.1\r\nConnection: close\r\n\r\n"))
                    .as("a third connection").startsWith("HTTP/1.1 200 ");

            assertThat(readUntilClosed(first)).as("the oldest").startsWith("HTTP/1.1 503 ")
                    .contains("Retry-After: 1", "Connection: close");
        }
    }

    @Test
    void aConnectionBeyondTheCapIsAnswered503AndClosedWhenEveryOpenOneIsBeingAnswered() throws Exception {
        PeerLimits one = new PeerLimits(1, 64, LIMITS.headTimeout(), LIMITS.bodyTimeout(), LIMITS.idleTimeout(),
                LIMITS.writeTimeout());
        CountDownLatch handling = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        try (PeerServer server = PeerServer.start("127.0.0.1", 0, 1, one)) {
            server.serve(request -> {
                handling.countDown();
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                return SEVEN.answer(request);
            });
            try (Socket handled = connect(server, PROVEN_REQUEST)) {
                assertThat(handling.await(READ_DEADLINE_MS, TimeUnit.MILLISECONDS)).as("the request handed over")
                        .isTrue();
                try (Socket second = connect(server, "")) {
                    assertThat(readUntilClosed(second)).startsWith("HTTP/1.1 503 ");
                } finally {
                    release.countDown();
                }
                assertThat(readUntilClosed(handled)).as("the request being answered").startsWith("HTTP/1.1 200 ");
            }
        } finally {
            release.countDown();
        }
    }

    @Test
    void oneAddressHoldingItsShareOfConnectionsLeavesRoomForAnotherAddress() throws Exception {
        PeerLimits perAddress = new PeerLimits(64, 2, LIMITS.headTimeout(), LIMITS.bodyTimeout(),
                LIMITS.idleTimeout(), LIMITS.writeTimeout());
        try (PeerServer server = PeerServer.start("127.0.0.1", 0, 1, perAddress);
             Socket first = connectFrom("127.0.0.2", server, "G");
             Socket second = connectFrom("127.0.0.2", server, "G");
             Socket third = connectFrom("127.0.0.2", server, "")) {
            server.serve(SEVEN);

            assertThat(readUntilClosed(third)).startsWith("HTTP/1.1 503 ");
            assertThat(exchange(server, "GET " + Peers.PARTIALS_FULL_PATH + " HTTP/1.1\r\nConnection: close\r\n\r\n"))
                    .as("from 127.0.0.1").startsWith("HTTP/1.1 200 ");
        }
    }

    @Test
    void aRequestWhoseHeadersDoNotArriveInTimeIsAnswered408AndClosed() throws Exception {
        PeerLimits quick = new PeerLimits(64, 64, Duration.ofMillis(300), LIMITS.bodyTimeout(),
                LIMITS.idleTimeout(), LIMITS.writeTimeout());
        try (PeerServer server = PeerServer.start("127.0.0.1", 0, 1, quick); Socket slow = connect(server, "GET /")) {
            server.serve(SEVEN);

            assertThat(readUntilClosed(slow)).startsWith("HTTP/1.1 408 ");
        }
    }

    @Test
    void aNewConnectionThatSendsNothingIsClosedAfterTheHeadTimeoutNotTheLongerIdleTimeout() throws Exception {
        PeerLimits quick = new PeerLimits(64, 64, Duration.ofMillis(300), LIMITS.bodyTimeout(),
                Duration.ofSeconds(60), LIMITS.writeTimeout());
        try (PeerServer server = PeerServer.start("127.0.0.1", 0, 1, quick); Socket silent = connect(server, "")) {
            server.serve(SEVEN);

            assertThat(readUntilClosed(silent)).startsWith("HTTP/1.1 408 ");
        }
    }

    @Test
    void aKeptAliveConnectionThatSendsNothingMoreIsClosedAfterTheIdleTimeout() throws Exception {
        PeerLimits quick = new PeerLimits(64, 64, LIMITS.headTimeout(), LIMITS.bodyTimeout(),
                Duration.ofMillis(300), LIMITS.writeTimeout());
        try (PeerServer server = PeerServer.start("127.0.0.1", 0, 1, quick)) {
            server.serve(SEVEN); // before the request: one read before it is answered 503 (not serving yet)
            try (Socket kept = connect(server, REQUEST)) {
                assertThat(readUntilClosed(kept)).startsWith("HTTP/1.1 200 ").doesNotContain("Connection: close");
            }
        }
    }

    @Test
    void anUnprovenRequestIsRefusedAndItsConnectionClosedThoughItAskedToKeepItAlive() throws Exception {
        try (PeerServer server = PeerServer.start("127.0.0.1", 0, 1, LIMITS)) {
            server.serve(PROVING);

            assertThat(exchange(server, REQUEST)).startsWith("HTTP/1.1 401 ").contains("Connection: close");
            assertThat(exchange(server, "GET / HTTP/1.1\r\nHost: x\r\n\r\n")).startsWith("HTTP/1.1 404 ")
                    .contains("Connection: close");
        }
    }

    @Test
    void clientsResendingUnprovenRequestsOnEveryConnectionDoNotKeepAProvenPeerOut() throws Exception {
        PeerLimits four = new PeerLimits(4, 64, LIMITS.headTimeout(), LIMITS.bodyTimeout(), LIMITS.idleTimeout(),
                LIMITS.writeTimeout());
        List<Socket> unproven = new ArrayList<>();
        try (PeerServer server = PeerServer.start("127.0.0.1", 0, 1, four)) {
            server.serve(PROVING);
            for (int i = 0; i < 4; i++) {
                Socket socket = connect(server, REQUEST);
                unproven.add(socket);
                assertThat(readHead(socket)).startsWith("HTTP/1.1 401 ");
            }

            assertThat(exchange(server, PROVEN_REQUEST)).startsWith("HTTP/1.1 200 ");
        } finally {
            for (Socket socket : unproven) {
                socket.close();
            }
        }
    }

    @Test
    void unprovenRequestsAreRefusedWithoutTakingTheHandlerThreadsAProvenRequestNeeds() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        PeerServer.Endpoint slowForUnproven = new PeerServer.Endpoint() {
            @Override
            public PeerServer.Answer answer(PeerServer.Request request) {
                if (!request.headers().containsKey("x-proof")) {
                    try {
                        release.await(); // what a handler thread costs an unproven request that reaches it
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
                return SEVEN.answer(request);
            }

            @Override
            public Optional<PeerServer.Answer> refusal(PeerServer.Request request) {
                return PROVING.refusal(request);
            }
        };
        List<Socket> unproven = new ArrayList<>();
        try (PeerServer server = PeerServer.start("127.0.0.1", 0, 1, LIMITS)) {
            server.serve(slowForUnproven);
            for (int i = 0; i < 8; i++) {
                unproven.add(connect(server, REQUEST));
            }
            for (Socket socket : unproven) {
                assertThat(readHead(socket)).startsWith("HTTP/1.1 401 ");
            }

            assertThat(exchange(server, PROVEN_REQUEST)).startsWith("HTTP/1.1 200 ");
        } finally {
            release.countDown();
            for (Socket socket : unproven) {
                socket.close();
            }
        }
    }

    @Test
    void aKeptAliveConnectionCarriesPipelinedRequestsAndConnectionCloseEndsIt() throws Exception {
        String last = "GET " + Peers.PARTIALS_FULL_PATH + " HTTP/1.1\r\nConnection: close\r\n\r\n";
        try (PeerServer server = PeerServer.start("127.0.0.1", 0, 1, LIMITS)) {
            server.serve(SEVEN);
            try (Socket socket = connect(server, REQUEST + REQUEST + last)) {
                String answers = readUntilClosed(socket);

                assertThat(answers.split("HTTP/1.1 200 OK", -1)).hasSize(4);
                assertThat(answers).endsWith("Connection: close\r\n\r\n\u0007");
            }
        }
    }

    @Test
    void refusesOversizedOrMalformedRequestsAndUnknownPaths() throws Exception {
        try (PeerServer server = PeerServer.start("127.0.0.1", 0, 1, LIMITS)) {
            server.serve(SEVEN);

            assertThat(exchange(server, "GET / HTTP/1.1\r\nA: " + "x".repeat(9_000) + "\r\n\r\n")).startsWith(
                    "HTTP/1.1 431 ");
            assertThat(exchange(server, "GET / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n")).startsWith(
                    "HTTP/1.1 501 ");
            assertThat(exchange(server, "POST / HTTP/1.1\r\nContent-Length: 100000\r\n\r\n")).startsWith(
                    "HTTP/1.1 413 ");
            assertThat(exchange(server, "GET /other HTTP/1.1\r\nConnection: close\r\n\r\n")).startsWith(
                    "HTTP/1.1 404 ");
        }
    }

    @Test
    void answers503UntilAnEndpointIsSet() throws Exception {
        try (PeerServer server = PeerServer.start("127.0.0.1", 0, 1, LIMITS)) {
            assertThat(get(server).statusCode()).isEqualTo(503);
        }
    }

    @Test
    void anAddressThatDoesNotResolveIsRefusedNamingTheSettingAndLeavesNoDescriptorOpen() throws Exception {
        long before = openDescriptors();
        for (int i = 0; i < 50; i++) {
            assertThatThrownBy(() -> PeerServer.start("no-such-host.invalid", 0, 1, LIMITS))
                    .isInstanceOf(ConfigException.class)
                    .hasMessageContaining(MonitorConfig.PEER_BIND_ADDRESS_CONFIG).hasMessageContaining("no-such-host");
        }

        assertThat(openDescriptors()).as("this JVM's open descriptors after 50 attempts").isLessThan(before + 25);
    }

    @Test
    void aPortInUseIsRefusedNamingTheSettings() throws Exception {
        try (PeerServer server = PeerServer.start("127.0.0.1", 0, 1, LIMITS)) {
            assertThatThrownBy(() -> PeerServer.start("127.0.0.1", server.port(), 1, LIMITS))
                    .isInstanceOf(ConfigException.class).hasMessageContaining(MonitorConfig.PEER_PORT_CONFIG)
                    .hasMessageContaining(MonitorConfig.PEER_BIND_ADDRESS_CONFIG);
        }
    }

    @Test
    void anAcceptedConnectionThatCannotBeConfiguredIsClosedNotLeft() throws Exception {
        try (PeerServer server = PeerServer.start("127.0.0.1", 0, 1, LIMITS)) {
            server.serve(SEVEN);
            UnconfigurableChannel channel = new UnconfigurableChannel();

            assertThat(server.admit(channel, InetAddress.getLoopbackAddress())).isFalse();
            assertThat(channel.isOpen()).isFalse();
            assertThat(get(server).statusCode()).as("the listener goes on").isEqualTo(200);
        }
    }

    /** An accepted connection whose socket options cannot be set (the peer reset it meanwhile, say). */
    private static final class UnconfigurableChannel extends SocketChannel {
        UnconfigurableChannel() {
            super(SelectorProvider.provider());
        }

        @Override
        public <T> SocketChannel setOption(SocketOption<T> name, T value) throws IOException {
            throw new IOException("Connection reset by peer");
        }

        @Override
        protected void implCloseSelectableChannel() {
        }

        @Override
        protected void implConfigureBlocking(boolean block) {
        }

        @Override
        public SocketChannel bind(SocketAddress local) {
            throw new UnsupportedOperationException();
        }

        @Override
        public <T> T getOption(SocketOption<T> name) {
            throw new UnsupportedOperationException();
        }

        @Override
        public Set<SocketOption<?>> supportedOptions() {
            return Set.of();
        }

        @Override
        public SocketChannel shutdownInput() {
            return this;
        }

        @Override
        public SocketChannel shutdownOutput() {
            return this;
        }

        @Override
        public Socket socket() {
            throw new UnsupportedOperationException();
        }

        @Override
        public boolean isConnected() {
            return true;
        }

        @Override
        public boolean isConnectionPending() {
            return false;
        }

        @Override
        public boolean connect(SocketAddress remote) {
            throw new UnsupportedOperationException();
        }

        @Override
        public boolean finishConnect() {
            return true;
        }

        @Override
        public SocketAddress getRemoteAddress() {
            return null;
        }

        @Override
        public int read(ByteBuffer dst) {
            return -1;
        }

        @Override
        public long read(ByteBuffer[] dsts, int offset, int length) {
            return -1;
        }

        @Override
        public int write(ByteBuffer src) {
            return 0;
        }

        @Override
        public long write(ByteBuffer[] srcs, int offset, int length) {
            return 0;
        }

        @Override
        public SocketAddress getLocalAddress() {
            return null;
        }
    }

    private static long openDescriptors() throws IOException {
        try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
            return fds.count();
        }
    }

    private static String exchange(PeerServer server, String request) throws IOException {
        try (Socket socket = connect(server, request)) {
            return readUntilClosed(socket);
        }
    }

    private static Socket connect(PeerServer server, String text) throws IOException {
        return connectFrom("127.0.0.1", server, text);
    }

    /** A connection from {@code source}, a loopback address. */
    private static Socket connectFrom(String source, PeerServer server, String text) throws IOException {
        Socket socket = new Socket();
        socket.bind(new InetSocketAddress(source, 0));
        socket.connect(new InetSocketAddress("127.0.0.1", server.port()), READ_DEADLINE_MS);
        socket.setSoTimeout(READ_DEADLINE_MS);
        socket.getOutputStream().write(text.getBytes(StandardCharsets.ISO_8859_1));
        socket.getOutputStream().flush();
        return socket;
    }

    /** Everything the listener writes until it closes the connection; fails if it neither answers nor closes. */
    private static String readUntilClosed(Socket socket) throws IOException {
        ByteArrayOutputStream received = new ByteArrayOutputStream();
        InputStream in = socket.getInputStream();
        byte[] buffer = new byte[4096];
        try {
            for (int n; (n = in.read(buffer)) >= 0; ) {
                received.write(buffer, 0, n);
            }
        } catch (SocketTimeoutException e) {
            throw new AssertionError("the listener neither answered nor closed within " + READ_DEADLINE_MS
                    + " ms; received so far: " + received.toString(StandardCharsets.ISO_8859_1), e);
        } catch (IOException e) {
            // reset after its answer: what came before counts
        }
        return received.toString(StandardCharsets.ISO_8859_1);
    }

    /** The head of one answer (the listener's refusals have no body), without waiting for the connection's end. */
    private static String readHead(Socket socket) throws IOException {
        ByteArrayOutputStream received = new ByteArrayOutputStream();
        InputStream in = socket.getInputStream();
        try {
            while (!received.toString(StandardCharsets.ISO_8859_1).endsWith("\r\n\r\n")) {
                int b = in.read();
                if (b < 0) {
                    break;
                }
                received.write(b);
            }
        } catch (SocketTimeoutException e) {
            throw new AssertionError("the listener did not answer within " + READ_DEADLINE_MS + " ms", e);
        }
        return received.toString(StandardCharsets.ISO_8859_1);
    }

    private static HttpResponse<byte[]> get(PeerServer server) throws IOException, InterruptedException {
        return HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port()
                + Peers.PARTIALS_FULL_PATH)).timeout(Duration.ofSeconds(30)).GET().build(),
                HttpResponse.BodyHandlers.ofByteArray());
    }
}
