package dev.quarantine.compat.connect;

import static dev.quarantine.compat.connect.CompatRecords.RECORDS;
import static dev.quarantine.compat.connect.CompatRecords.produceDeadLetters;
import static dev.quarantine.compat.connect.CompatRecords.produceOrders;
import static dev.quarantine.compat.connect.WorkerProbe.awaitMonitorCount;
import static dev.quarantine.compat.connect.WorkerProbe.errorLines;
import static dev.quarantine.compat.connect.WorkerProbe.get;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import com.fasterxml.jackson.databind.JsonNode;

import dev.quarantine.compat.connect.Expected.Outcome;
import dev.quarantine.sandbox.Await;
import dev.quarantine.sandbox.ConnectRest.Answer;
import dev.quarantine.sandbox.LocalConnect;
import dev.quarantine.sandbox.LocalKafka;
import dev.quarantine.sandbox.LocalKafkaExtension;
import dev.quarantine.sandbox.TopicReader;

/**
 * The plugin archive, as users install it (plugin.path), on a real Connect worker JVM of {@code compat.connect.version}
 * against a Kafka 4.4 broker: what {@link Expected} says, and what it saw in {@link Results}.
 */
@ExtendWith(LocalKafkaExtension.class)
class ConnectWorkerCompatibilityIT {

    static final String VERSION = System.getProperty("compat.connect.version");
    /** The kafka-streams in the worker's classpath: its own version, or a newer one beside its own kafka-clients. */
    static final String STREAMS = System.getProperty("compat.streams.version", VERSION);
    /** Where the results go: the worker's version, and the kafka-streams version when it is not the worker's own. */
    static final String RUN = STREAMS.equals(VERSION) ? VERSION : VERSION + "-streams-" + STREAMS;
    private static final String EXTENSION = "dev.quarantine.connect.rest.DeadLetterRestExtension";
    private static final String SINK = "dev.quarantine.connect.sink.TransactionalKafkaSinkConnector";
    private static final String REFUSAL_LINE = "Dead-letter monitor disabled: DeadLetterRestExtension";
    private static final Duration DEADLINE = Duration.ofMinutes(2);

    private final String prefix = "compat-" + UUID.randomUUID().toString().substring(0, 6);

    @Test
    void sinkAndMonitorOnAWorkerWithItsOwnKafkaStreams(LocalKafka kafka) throws Exception {
        String dlq = prefix + "-monitored-dlq";
        kafka.createTopic(dlq, 1, Map.of());
        produceDeadLetters(kafka, dlq, 3);
        try (LocalConnect connect = worker(kafka, "compat.worker.classpath", dlq).start()) {
            monitorWithOwnStreams(connect, dlq);
            sinkFlow(kafka, connect);
            replayFlow(kafka, connect);
            if (Expected.monitorWithOwnStreams(VERSION, STREAMS) == Outcome.WORKS) {
                monitorFollowsANewDeadLetterTopic(connect, 4);
            }
        }
    }

    /**
     * The sink connector's DLQ changes the monitored set: the aggregation closes and a new one starts (Kafka Streams
     * before 4.2 has no CloseOptions); it counts the sink's dead letters, and nothing was logged at ERROR.
     */
    private void monitorFollowsANewDeadLetterTopic(LocalConnect connect, long deadLetters) throws IOException {
        awaitMonitorCount(connect, prefix + "-sink-dlq", deadLetters);

        assertThat(errorLines(connect)).as("ERROR lines of the plugin in the worker log").isEmpty();
        Results.record(RUN, "monitor.own-streams", "works", "GET /dead-letters/{topic} counted 3 of 3; after"
                + " the monitored set changed (the sink's DLQ discovered), the new aggregation counted its "
                + deadLetters);
    }

    @Test
    void monitorRefusesCleanlyOnAWorkerWithoutKafkaStreams(LocalKafka kafka) throws Exception {
        try (LocalConnect connect = worker(kafka, "compat.worker.classpath.without.streams", prefix + "-dlq")
                .start()) {
            assertThat(Expected.monitorWithoutStreams(VERSION)).isEqualTo(Outcome.REFUSED_501);
            String line = assertRefusedWith501(connect, Expected.refusalWithoutStreams(VERSION));
            Results.record(RUN, "monitor.without-streams", "refused", "HTTP 501; " + line);
        }
    }

    private void monitorWithOwnStreams(LocalConnect connect, String dlq) throws IOException {
        if (Expected.monitorWithOwnStreams(VERSION, STREAMS) == Outcome.WORKS) {
            JsonNode answer = awaitMonitorCount(connect, dlq, 3);
            assertThat(answer.path("by_error_class").toString()).contains("RecordTooLargeException\":3");
            assertThat(errorLines(connect)).as("ERROR lines of the plugin in the worker log").isEmpty();
            Results.record(RUN, "monitor.own-streams", "works", "GET /dead-letters/{topic} counted 3 of 3");
        } else {
            String line = assertRefusedWith501(connect, Expected.refusalWithOwnStreams(VERSION, STREAMS));
            Results.record(RUN, "monitor.own-streams", "refused", "HTTP 501; " + line);
        }
    }

    /**
     * A clean refusal: the worker started, the plugin logged one ERROR line saying {@code reason}, and
     * {@code /dead-letters} and its sub-paths answer 501 with the same words; returns the ERROR line.
     */
    private String assertRefusedWith501(LocalConnect connect, List<String> reason) throws IOException {
        String line = assertRefusedOnce(connect);
        assertThat(line).contains(reason);
        for (String path : List.of("/dead-letters", "/dead-letters/" + prefix + "-dlq/records")) {
            Answer answer = get(connect, path);
            assertThat(answer.status()).as("GET " + path + " answered " + answer.text()).isEqualTo(501);
            assertThat(answer.body().path("message").asText()).as("GET " + path)
                    .contains(reason).contains("rest.extension.classes");
        }
        return line;
    }

    /** The replay connector puts the sink's 4 dead letters into a named topic, each once. */
    private void replayFlow(LocalKafka kafka, LocalConnect connect) {
        String destination = prefix + "-replayed";
        kafka.createTopic(destination, 1, Map.of());
        connect.createConnector(prefix + "-replay", Map.of(
                "connector.class", "dev.quarantine.connect.replay.DeadLetterReplayConnector",
                "bootstrap.servers", kafka.bootstrapServers(),
                "dlq.topic.name", prefix + "-sink-dlq",
                "replay.destination", destination));
        Await.until(() -> "4 replayed records in " + destination + "; status "
                + connect.status(prefix + "-replay"), Duration.ofSeconds(120), () -> TopicReader.readCommitted(kafka, destination,
                Duration.ofSeconds(30)).size() >= 4);
        List<ConsumerRecord<byte[], byte[]>> replayed = TopicReader.readCommitted(kafka, destination,
                Duration.ofSeconds(30));

        assertThat(replayed.stream().map(r -> new String(r.key(), StandardCharsets.UTF_8)).distinct().count())
                .as("the 4 dead letters, each once").isEqualTo(4).isEqualTo(replayed.size());
        Results.record(RUN, "replay", "works", "the sink's 4 dead letters replayed exactly once");
    }

    /** 200 records, 4 of them poison for the target topic (2 too large, 2 too old): copied, or dead-lettered. */
    private void sinkFlow(LocalKafka kafka, LocalConnect connect) {
        String source = createSinkTopics(kafka);
        String target = "copy." + source;
        String dlq = prefix + "-sink-dlq";
        produceOrders(kafka, source);
        connect.createConnector(prefix + "-copy", sinkConfig(kafka, source, dlq));
        connect.awaitRunning(prefix + "-copy", 2, Duration.ofSeconds(90));
        List<ConsumerRecord<byte[], byte[]>>[] landed = awaitLanded(kafka, target, dlq);

        assertThat(landed[0].size()).as("records copied").isEqualTo(RECORDS - 4);
        assertThat(landed[0].stream().map(r -> new String(r.key(), StandardCharsets.UTF_8)).distinct().count())
                .as("distinct records copied").isEqualTo(RECORDS - 4);
        assertThat(errorClasses(landed[1])).isEqualTo(Map.of(
                "org.apache.kafka.common.errors.RecordTooLargeException", 2L,
                "org.apache.kafka.common.errors.InvalidTimestampException", 2L));
        Results.record(RUN, "sink", "works", (RECORDS - 4) + " copied exactly once, 4 poison records"
                + " dead-lettered in the same transactions");
    }

    /** The source, its copy (which rejects records over 10,000 bytes or a day old) and the DLQ; returns the source. */
    private String createSinkTopics(LocalKafka kafka) {
        String source = prefix + "-orders";
        kafka.createTopic(source, 3, Map.of());
        kafka.createTopic("copy." + source, 3, Map.of("max.message.bytes", "10000",
                "message.timestamp.before.max.ms", String.valueOf(Duration.ofDays(1).toMillis())));
        kafka.createTopic(prefix + "-sink-dlq", 1, Map.of());
        return source;
    }

    private LocalConnect worker(LocalKafka kafka, String classpathProperty, String monitoredTopic) {
        Path pluginPath = Path.of(System.getProperty("quarantine.plugin.path"));
        List<Path> classpath = LocalConnect.readClasspath(Path.of(System.getProperty(classpathProperty)));
        return LocalConnect.create(kafka, pluginPath, classpath, Map.of("rest.extension.classes", EXTENSION,
                "quarantine.monitor.topics", monitoredTopic, "quarantine.monitor.discovery.interval.ms", "2000"));
    }

    private static Map<String, String> sinkConfig(LocalKafka kafka, String source, String dlq) {
        return Map.of("connector.class", SINK, "tasks.max", "2", "topics", source,
                "target.bootstrap.servers", kafka.bootstrapServers(), "target.topic.format", "copy.${topic}",
                "dlq.topic.name", dlq, "consumer.override.auto.offset.reset", "earliest",
                "consumer.override.isolation.level", "read_committed");
    }

    @SuppressWarnings("unchecked")
    private static List<ConsumerRecord<byte[], byte[]>>[] awaitLanded(LocalKafka kafka, String target, String dlq) {
        List<ConsumerRecord<byte[], byte[]>>[] landed = new List[2];
        Await.until(() -> RECORDS + " records copied or dead-lettered; saw " + landed[0].size() + " + "
                + landed[1].size(), DEADLINE, () -> {
            landed[0] = TopicReader.readCommitted(kafka, target, Duration.ofSeconds(30));
            landed[1] = TopicReader.readCommitted(kafka, dlq, Duration.ofSeconds(30));
            return landed[0].size() + landed[1].size() >= RECORDS;
        });
        return landed;
    }

    private static Map<String, Long> errorClasses(List<ConsumerRecord<byte[], byte[]>> deadLetters) {
        return deadLetters.stream().collect(Collectors.groupingBy(r -> {
            var header = r.headers().lastHeader("__connect.errors.exception.class.name");
            return header == null ? "(none)" : new String(header.value(), StandardCharsets.UTF_8);
        }, Collectors.counting()));
    }

    /** The one ERROR line of a refusal; the worker started (it answers) and says nothing else at ERROR. */
    private static String assertRefusedOnce(LocalConnect connect) throws IOException {
        List<String> errors = errorLines(connect);
        assertThat(errors).as("ERROR lines of the plugin in the worker log").hasSize(1);
        assertThat(errors.get(0)).contains(REFUSAL_LINE, "rest.extension.classes");
        return errors.get(0).substring(errors.get(0).indexOf(REFUSAL_LINE));
    }
}
