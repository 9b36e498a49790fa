package dev.quarantine.connect.rest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

import org.apache.kafka.common.config.types.Password;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import dev.quarantine.connect.BuiltPlugin;
import dev.quarantine.sandbox.Await;
import dev.quarantine.sandbox.ConnectRest.Answer;
import dev.quarantine.sandbox.FreePorts;
import dev.quarantine.sandbox.LocalConnect;
import dev.quarantine.sandbox.LocalKafka;
import dev.quarantine.sandbox.LocalKafkaExtension;
import dev.quarantine.connect.rest.peers.Peers;
import dev.quarantine.connect.rest.peers.PeerAuth;

/**
 * The monitor's peer listener on a real worker JVM, attacked the way anyone who reaches its port can: connections
 * that send one byte and then nothing, a flood of them from one host (127.0.0.2), a captured signed request sent
 * again. The test acts as another worker of the cluster (it holds the shared secret and signs as the monitor does),
 * from 127.0.0.1.
 */
@ExtendWith(LocalKafkaExtension.class)
class PeerListenerIT {

    private static final String PREFIX = "peer-" + Long.toHexString(System.nanoTime()).substring(6);
    private static final String DLQ = PREFIX + "-dlq";
    private static final String PEER_SECRET = "peer-listener-it-secret-0123456789-abcdefghij";
    private static final Duration SETTLED = Duration.ofSeconds(120);
    private static final int IDLE_CONNECTIONS = 100;
    private static final int FLOOD_CONNECTIONS = 2_000;
    /** Where the idle connections and the flood come from (loopback); the test's signed requests: 127.0.0.1. */
    private static final String FLOOD_SOURCE = "127.0.0.2";
    /** A flood of more connections than the listener's cap (256), from hosts each below the cap per address (32). */
    private static final int MANY_HOSTS = 10;
    private static final int CONNECTIONS_PER_HOST = 30;
    /** How many more descriptors than before the flood the worker may hold once it is over (its clients vary). */
    private static final int FD_SLACK = 60;

    private static LocalKafka kafka;
    private static LocalConnect worker;
    private static final PeerRequests peers = new PeerRequests();

    @BeforeAll
    static void startOneWorkerWithTheMonitor(LocalKafka localKafka) throws Exception {
        kafka = localKafka;
        kafka.createTopic(DLQ, 1, Map.of());
        DeadLetterTestData.produce(kafka, DLQ, 3, "org.example.PoisonException");
        worker = worker(PREFIX, PEER_SECRET).start();
        awaitSignedShare();
    }

    @AfterAll
    static void stopWorker() {
        if (worker != null) {
            worker.close();
        }
    }

    @Test
    void aSignedRequestIsAnsweredWhileAHundredConnectionsSentOneByteAndThenNothing() throws Exception {
        // beyond the connections one address may hold, they are answered 503 and closed
        try (Flood idle = Flood.of(worker, List.of(FLOOD_SOURCE), IDLE_CONNECTIONS)) {
            // ConnectRest waits 30 s for an answer, then fails: a generous deadline, not a speed test
            Answer answer = peers.signedShare(auth(), worker, 0);

            assertThat(answer.status()).as(answer.text()).isEqualTo(200);
        }
    }

    @Test
    void aSignedRequestIsAnsweredWhileOneHostHoldsAFloodOfTwoThousandConnectionsAndFdsComeBackAfterwards()
            throws Exception {
        long before = openFileDescriptors();
        Flood flood = Flood.of(worker, List.of(FLOOD_SOURCE), FLOOD_CONNECTIONS);
        try (flood) {
            // from 127.0.0.1, as another worker, on a new connection (not one kept alive from before the flood)
            HttpResponse<String> duringTheFlood = onNewConnection(peers.captureShare(auth(), worker, 0),
                    Duration.ofSeconds(30));

            assertThat(duringTheFlood.statusCode()).as(duringTheFlood.body()).isEqualTo(200);
        }

        awaitDescriptorsBackNear(before, flood);
        assertThat(peers.signedShare(auth(), worker, 0).status()).as("still answering after the flood")
                .isEqualTo(200);
    }

    @Test
    void aSignedRequestIsAnsweredWithinTheForwardTimeoutWhileManyHostsFillEveryConnectionOfTheListener()
            throws Exception {
        long before = openFileDescriptors();
        // 10 hosts x 30: more than the listener's 256 connections, each host below its cap of 32
        Flood flood = Flood.of(worker, manyHosts(), CONNECTIONS_PER_HOST);
        try (flood) {
            // from 127.0.0.1, as another worker, on a new connection, with the deadline another worker gives it
            HttpResponse<String> duringTheFlood = onNewConnection(peers.captureShare(auth(), worker, 0),
                    Duration.ofMillis(MonitorConfig.FORWARD_TIMEOUT_MS_DEFAULT));

            assertThat(duringTheFlood.statusCode()).as(duringTheFlood.body()).isEqualTo(200);
        }

        awaitDescriptorsBackNear(before, flood);
    }

    @Test
    void aClusterWideRequestIsAnsweredWithExactFiguresWhileManyHostsFillEveryConnectionOfEachWorkersListener()
            throws Exception {
        String group = PREFIX + "-forward";
        String dlq = group + "-dlq";
        kafka.createTopic(dlq, 2, Map.of());
        DeadLetterTestData.produceToEachPartition(kafka, dlq, 2, 3, "org.example.PoisonException");
        try (LocalConnect one = forwardingWorker(group, dlq).start();
             LocalConnect two = forwardingWorker(group, dlq).start()) {
            MonitorAnswers.awaitTotal(one, dlq, 6, SETTLED);
            MonitorAnswers.awaitTotal(two, dlq, 6, SETTLED);

            // each worker's listener full of one-byte connections; whichever worker holds a partition, the other
            // asks it for that partition's share, and answers 503 unless that share comes within forward.timeout.ms
            try (Flood atOne = Flood.of(one, manyHosts(), CONNECTIONS_PER_HOST);
                 Flood atTwo = Flood.of(two, manyHosts(), CONNECTIONS_PER_HOST)) {
                for (LocalConnect asked : List.of(one, two)) {
                    Answer answer = asked.rest().get("/dead-letters/" + dlq);

                    assertThat(answer.status()).as(answer.text()).isEqualTo(200);
                    assertThat(answer.body().path("total").asLong()).as(answer.text()).isEqualTo(6);
                }
            }
        }
    }

    @Test
    void aCapturedSignedRequestSentAgainIsRefused() {
        PeerRequests.Captured captured = peers.captureShare(auth(), worker, 0);

        Answer first = peers.send(worker, captured);
        Answer again = peers.send(worker, captured);

        assertThat(first.status()).as(first.text()).isEqualTo(200);
        assertThat(again.status()).as(again.text()).isEqualTo(401);
        assertThat(again.body().path("category").asText()).isEqualTo("UNAUTHORIZED");
    }

    @Test
    void aSignedRequestCapturedBeforeTheWorkerRestartedIsRefusedAfterTheRestartWithinTheFreshnessWindow() {
        PeerRequests.Captured captured = peers.captureShare(auth(), worker, 0);

        // stopped as an operator does (its Streams member leaves the group) and started again on the same ports;
        // the captured request is still fresh (30 s) when sent again, as soon as the new listener checks signatures
        worker.stop();
        worker.start();
        awaitCheckingSignatures();
        Answer again = peers.send(worker, captured);

        // the answer does not say why (PeerAuthTest has the reason); without the rule it was accepted: 200 or 503
        assertThat(again.status()).as(again.text()).isEqualTo(401);
        assertThat(again.body().path("category").asText()).isEqualTo("UNAUTHORIZED");
        awaitSignedShare();
    }

    @Test
    void aRequestOfAnOlderPluginVersionIsRefusedWith400AndLoggedOnceWithoutItsSignature() throws Exception {
        String signature = "b2xkZXItcGx1Z2luLXNpZ25hdHVyZQ";
        Map<String, String> olderProof = Map.of(PeerAuth.TIME_HEADER, String.valueOf(System.currentTimeMillis()),
                PeerAuth.SIGNATURE_HEADER, signature);

        List<Answer> answers = List.of(peers.send(worker, new PeerRequests.Captured("partitions=0&records=0",
                olderProof)), peers.send(worker, new PeerRequests.Captured("partitions=0&records=0", olderProof)));

        assertThat(answers).allSatisfy(answer -> {
            assertThat(answer.status()).as(answer.text()).isEqualTo(400);
            assertThat(answer.body().path("message").asText()).contains("different versions of the plugin");
        });
        String log = Files.readString(worker.logFile());
        assertThat(log.split("refused a request of peer protocol 1", -1)).as("said once in the worker log")
                .hasSize(2);
        assertThat(log).doesNotContain(signature, PEER_SECRET);
    }

    @Test
    void aWorkerWithAPeerSecretShorterThanTheMinimumRefusesToStartNamingTheSetting() {
        String tooShort = "only-24-characters-long!";
        LocalConnect refused = worker(PREFIX + "-short", tooShort);
        try {
            assertThatThrownBy(refused::start).hasMessageContaining(MonitorConfig.PEER_SECRET_CONFIG)
                    .hasMessageNotContaining(tooShort);
        } finally {
            refused.close();
        }
    }

    @Test
    void theListenerIsBoundToTheWorkersRestInterfaceNotEveryInterface() throws Exception {
        int port = Integer.parseInt(PeerRequests.address(worker).replaceAll(".*:", ""));

        assertThat(listeningAddresses(worker.pid(), port)).as("local addresses listening on port " + port)
                .containsExactly("127.0.0.1");
    }

    /** Sends a signed request on a connection of its own; waits up to {@code deadline} for the answer. */
    private static HttpResponse<String> onNewConnection(PeerRequests.Captured request, Duration deadline)
            throws Exception {
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        HttpRequest.Builder get = HttpRequest.newBuilder(URI.create(PeerRequests.url(worker)
                + Peers.PARTIALS_FULL_PATH + "?" + request.rawQuery())).timeout(deadline).GET();
        request.headers().forEach(get::header);
        return http.send(get.build(), HttpResponse.BodyHandlers.ofString());
    }

    /** One-byte connections held open: {@code perSource} tried from each source; those refused at connect counted. */
    private record Flood(List<Socket> sockets, int refused) implements AutoCloseable {

        static Flood of(LocalConnect target, List<String> sources, int perSource) {
            List<Socket> sockets = new ArrayList<>();
            int refused = 0;
            for (String source : sources) {
                for (int i = 0; i < perSource; i++) {
                    try {
                        sockets.add(oneByteConnection(target, source));
                    } catch (IOException e) {
                        refused++; // answered 503 and closed before the byte went out, or the backlog was full
                    }
                }
            }
            return new Flood(sockets, refused);
        }

        @Override
        public void close() {
            closeAll(sockets);
        }
    }

    /** Until the worker holds at most {@link #FD_SLACK} more descriptors than {@code before} the flood. */
    private static void awaitDescriptorsBackNear(long before, Flood flood) {
        long[] now = new long[1];
        Await.until(() -> "the worker's open file descriptors back near " + before + " after "
                + (flood.sockets().size() + flood.refused()) + " connections (" + flood.refused()
                + " refused at connect); now " + now[0], SETTLED,
                () -> (now[0] = openFileDescriptors()) <= before + FD_SLACK);
    }

    /** A connection from {@code source} (a loopback address) to {@code target}'s listener: one byte, then nothing. */
    private static Socket oneByteConnection(LocalConnect target, String source) throws IOException {
        String[] hostPort = PeerRequests.address(target).split(":");
        Socket socket = new Socket();
        try {
            socket.bind(new InetSocketAddress(source, 0));
            socket.connect(new InetSocketAddress(hostPort[0], Integer.parseInt(hostPort[1])), 5_000);
            socket.getOutputStream().write('G');
            socket.getOutputStream().flush();
            return socket;
        } catch (IOException e) {
            socket.close();
            throw e;
        }
    }

    /** The loopback addresses a flood comes from: 127.0.0.10 and on. */
    private static List<String> manyHosts() {
        List<String> hosts = new ArrayList<>();
        for (int host = 0; host < MANY_HOSTS; host++) {
            hosts.add("127.0.0." + (10 + host));
        }
        return hosts;
    }

    private static void closeAll(List<Socket> sockets) {
        for (Socket socket : sockets) {
            try {
                socket.close();
            } catch (IOException e) {
                // closing our side only
            }
        }
    }

    private static long openFileDescriptors() {
        try (Stream<Path> fds = Files.list(Path.of("/proc", String.valueOf(worker.pid()), "fd"))) {
            return fds.count();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The local addresses of the sockets of process {@code pid} listening on {@code port} (from /proc/net/tcp). */
    private static List<String> listeningAddresses(long pid, int port) throws IOException {
        List<String> addresses = new ArrayList<>();
        for (String table : List.of("tcp", "tcp6")) {
            Path file = Path.of("/proc", String.valueOf(pid), "net", table);
            if (!Files.exists(file)) {
                continue;
            }
            List<String> lines = Files.readAllLines(file); // read once: sockets come and go between two reads
            for (String line : lines.subList(1, lines.size())) {
                String[] fields = line.trim().split("\\s+");
                String[] local = fields[1].split(":");
                boolean listening = fields[3].equals("0A");
                if (listening && Integer.parseInt(local[1], 16) == port) {
                    addresses.add(address(local[0]));
                }
            }
        }
        return addresses;
    }

    /** A /proc/net/tcp address (IPv4 little-endian hex; IPv6 given as is) in dotted form. */
    private static String address(String hex) {
        if (hex.length() != 8) {
            return hex.chars().allMatch(c -> c == '0') ? "::" : hex;
        }
        long value = Long.parseLong(hex, 16);
        return (value & 0xff) + "." + ((value >> 8) & 0xff) + "." + ((value >> 16) & 0xff) + "." + ((value >> 24)
                & 0xff);
    }

    /**
     * Until the listener checks signatures: a fresh signed request is answered by the monitor (a body: its share, or
     * its JSON error), not with the listener's empty 503 of before the monitor is registered.
     */
    private static void awaitCheckingSignatures() {
        Answer[] last = new Answer[1];
        Await.until(() -> "the restarted worker's peer listener answering a signed request; last: " + last[0],
                SETTLED, () -> {
                    try {
                        last[0] = peers.signedShare(auth(), worker, 0);
                    } catch (UncheckedIOException notListeningYet) {
                        return false;
                    }
                    return !last[0].text().isEmpty();
                });
    }

    private static void awaitSignedShare() {
        Answer[] last = new Answer[1];
        Await.until(() -> "a signed request for partition 0 answered 200; last: " + last[0], SETTLED, () -> {
            last[0] = peers.signedShare(auth(), worker, 0);
            return last[0].status() == 200;
        });
    }

    private static PeerAuth auth() {
        return new PeerAuth(Optional.of(new Password(PEER_SECRET)), Clock.systemUTC());
    }

    /** A worker of a cluster of its own ({@code group}) monitoring {@code dlq}, answering without a figures cache. */
    private static LocalConnect forwardingWorker(String group, String dlq) {
        Map<String, String> settings = monitoring(group, dlq, PEER_SECRET);
        settings.put(MonitorConfig.CACHE_MS_CONFIG, "0");
        settings.put(MonitorConfig.STREAMS_PREFIX + "session.timeout.ms", "6000");
        settings.put(MonitorConfig.STREAMS_PREFIX + "heartbeat.interval.ms", "2000");
        return LocalConnect.create(kafka, BuiltPlugin.PLUGIN_PATH, BuiltPlugin.workerClasspath(), settings);
    }

    private static LocalConnect worker(String group, String secret) {
        Map<String, String> settings = monitoring(group, DLQ, secret);
        // the same port after a restart, as a worker's own settings give it
        settings.put(MonitorConfig.PEER_PORT_CONFIG, String.valueOf(FreePorts.next()));
        return LocalConnect.create(kafka, BuiltPlugin.PLUGIN_PATH, BuiltPlugin.workerClasspath(), settings);
    }

    /**
     * The settings of a worker of a cluster of its own ({@code group}) whose monitor watches {@code dlq} only (not
     * the class's other "-dlq" topics, nor connectors' dead-letter topics) and signs with {@code secret}.
     */
    private static Map<String, String> monitoring(String group, String dlq, String secret) {
        return new HashMap<>(Map.of(
                "group.id", group + "-connect",
                "config.storage.topic", group + "-configs",
                "offset.storage.topic", group + "-offsets",
                "status.storage.topic", group + "-status",
                "rest.extension.classes", DeadLetterRestExtension.class.getName(),
                MonitorConfig.TOPICS_CONFIG, dlq,
                MonitorConfig.TOPICS_REGEX_CONFIG, "",
                MonitorConfig.DISCOVER_CONNECTORS_CONFIG, "false",
                // one-byte connections keep their slot for the whole test (not 5 s): the flood holds the listener
                MonitorConfig.PEER_HEADER_TIMEOUT_MS_CONFIG, "60000",
                MonitorConfig.PEER_SECRET_CONFIG, secret));
    }
}
