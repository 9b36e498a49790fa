package dev.quarantine.connect.rest.resources;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

import org.apache.kafka.common.config.types.Password;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import dev.quarantine.connect.rest.InProcessMonitor;
import dev.quarantine.connect.rest.MonitorConfig;
import dev.quarantine.connect.rest.aggregation.Codec;
import dev.quarantine.connect.rest.aggregation.Monitor;
import dev.quarantine.connect.rest.aggregation.PartitionFigures;
import dev.quarantine.connect.rest.peers.PeerAnswers;
import dev.quarantine.connect.rest.peers.PeerAuth;
import dev.quarantine.connect.rest.peers.PeerServer;
import dev.quarantine.connect.rest.peers.Peers;
import dev.quarantine.sandbox.Await;
import dev.quarantine.sandbox.LocalKafka;
import dev.quarantine.sandbox.LocalKafkaExtension;

/**
 * A peer's request names the aggregation it reads (the digest of its topics and their width). While workers disagree
 * on the topics (one has seen a topic created, deleted or widened, another not yet), they run different aggregations
 * whose partition numbers name shares of different topics: this worker answers a request of another aggregation 409
 * (signed), which the asking worker turns into a 503 (PeersTest), never figures of other topics added to its own.
 * In process against a real broker, through the peer endpoint as the peer listener calls it.
 */
@ExtendWith(LocalKafkaExtension.class)
class PeerEndpointAggregationIT {

    private static final String SECRET = "peer-endpoint-aggregation-it-0123456789-abcdef";
    private static final Duration DEADLINE = Duration.ofSeconds(60);

    @Test
    void answersTheShareOfItsOwnAggregationAndAConflictForAnotherOne(LocalKafka kafka) {
        String dlq = "peer-aggregation-" + UUID.randomUUID().toString().substring(0, 8);
        kafka.createTopic(dlq, 1, Map.of());
        InProcessMonitor.produceDeadLetters(kafka, dlq, 3);
        Map<String, Object> settings = new HashMap<>(Map.of("group.id", dlq + "-group", "bootstrap.servers",
                kafka.bootstrapServers(), "listeners", "http://127.0.0.1:18083", MonitorConfig.TOPICS_CONFIG, dlq,
                MonitorConfig.DISCOVERY_INTERVAL_MS_CONFIG, "500", MonitorConfig.PEER_SECRET_CONFIG, SECRET));
        try (Monitor monitor = InProcessMonitor.create(settings)) {
            monitor.start();
            PeerAuth auth = new PeerAuth(Optional.of(new Password(SECRET)), Clock.systemUTC());
            ClusterReader reader = new ClusterReader(monitor, monitor.worker(), null, true, Clock.systemUTC());
            PeerEndpoint endpoint = new PeerEndpoint(monitor, reader, auth, new PeerAnswers(monitor.config(), auth));
            // 200 comes with what the aggregation has read so far: under load, one of the three letters at first
            Await.until("the aggregation answering for its partition 0 with the three dead letters", DEADLINE,
                    () -> totalOf(ask(endpoint, auth, monitor, Optional.empty(), null), dlq) == 3);
            String own = monitor.current().topics().fingerprint();

            PeerServer.Answer ofOwn = ask(endpoint, auth, monitor, Optional.of(own), null);
            PeerServer.Answer unnamed = ask(endpoint, auth, monitor, Optional.empty(), null);
            String other = own.equals("00000000") ? "00000001" : "00000000";
            PeerServer.Answer ofAnother = ask(endpoint, auth, monitor, Optional.of(other), null);
            // a topic only the other aggregation reads: the conflict, not "not monitored" (404, a failure for good)
            PeerServer.Answer topicOfAnother = ask(endpoint, auth, monitor, Optional.of(other), dlq + "-other");
            PeerServer.Answer topicNotMonitored = ask(endpoint, auth, monitor, Optional.of(own), dlq + "-other");
            PeerServer.Answer malformed = ask(endpoint, auth, monitor, Optional.of("<script>"), null);

            assertThat(ofOwn.status()).isEqualTo(200);
            assertThat(totalOf(ofOwn, dlq)).isEqualTo(3);
            assertThat(unnamed.status()).as("a worker that names no aggregation (an older one)").isEqualTo(200);
            assertThat(ofAnother.status()).isEqualTo(Peers.OTHER_AGGREGATION);
            assertThat(ofAnother.signature()).as("signed, so the asking worker trusts the conflict").isNotNull();
            assertThat(new String(ofAnother.body(), StandardCharsets.UTF_8)).contains("runs aggregation " + own
                    + ", not " + other);
            assertThat(topicOfAnother.status()).isEqualTo(Peers.OTHER_AGGREGATION);
            assertThat(topicNotMonitored.status()).isEqualTo(404);
            assertThat(malformed.status()).isEqualTo(400);
            assertThat(new String(malformed.body(), StandardCharsets.UTF_8)).doesNotContain("<script>");
        }
    }

    /** The dead letters of {@code topic} in a 200 answer; -1 for any other answer or a topic not yet counted. */
    private static long totalOf(PeerServer.Answer answer, String topic) {
        if (answer.status() != 200) {
            return -1;
        }
        var stats = Codec.decode(answer.body(), PartitionFigures::read).stats().get(topic);
        return stats == null ? -1 : stats.total();
    }

    /**
     * A signed request for partition 0 (of {@code topic}, or of every topic when null), naming {@code aggregation}
     * when given, as another worker sends it.
     */
    private static PeerServer.Answer ask(PeerEndpoint endpoint, PeerAuth auth, Monitor monitor,
                                         Optional<String> aggregation, String topic) {
        PartitionFigures.Query query = new PartitionFigures.Query(topic, 0);
        Map<String, String> params = aggregation.map(a -> Peers.params(List.of(0), query, a))
                .orElseGet(() -> Peers.params(List.of(0), query));
        String rawQuery = Peers.rawQuery(params);
        PeerAuth.Proof proof = auth.signRequest("127.0.0.1:18084", Peers.address(monitor.worker().self()), "GET",
                Peers.PARTIALS_FULL_PATH, rawQuery, new byte[0]);
        Map<String, String> headers = new HashMap<>();
        proof.headers().forEach((name, value) -> headers.put(name.toLowerCase(Locale.ROOT), value));
        PeerServer.Request request = new PeerServer.Request("GET", Peers.PARTIALS_FULL_PATH, rawQuery, headers,
                new byte[0]);
        return endpoint.refusal(request).orElseGet(() -> endpoint.answer(request));
    }
}
