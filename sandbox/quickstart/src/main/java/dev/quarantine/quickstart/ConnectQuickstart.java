package dev.quarantine.quickstart;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.stream.Collectors;

import com.fasterxml.jackson.databind.JsonNode;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArraySerializer;

import dev.quarantine.sandbox.Await;
import dev.quarantine.sandbox.ConnectRest.Answer;
import dev.quarantine.sandbox.LocalConnect;
import dev.quarantine.sandbox.LocalKafka;
import dev.quarantine.sandbox.TopicReader;
import dev.quarantine.txn.DeadLetterHeaders;

/**
 * The Connect part of the demo: a real Connect worker (its own JVM, the plugin loaded from {@code plugin.path})
 * copies 1,000 orders with {@code TransactionalKafkaSinkConnector}; 10 of them the target topic rejects (too large,
 * too old) and go to the dead-letter topic in the same transactions.
 */
final class ConnectQuickstart {

    /** What landed where, as a read_committed consumer sees it. */
    record Outcome(int copied, int distinctCopied, int deadLettered) {
    }

    /** The replay after the fix: what it reports, and the distinct orders the target then holds. */
    record Replay(long replayed, long deadLetteredAgain, int distinctInTarget) {
    }

    static final int ORDERS = 1000;
    static final String SOURCE = "shop-orders";
    static final String TARGET = "copy.shop-orders";
    static final String DEAD_LETTERS = "copy.dead-letters";
    private static final String CONNECTOR = "orders-copy";
    private static final Duration DEADLINE = Duration.ofMinutes(2);

    private final LocalKafka kafka;
    private final Path pluginPath;
    private final Path workerClasspath;
    private final PrintStream out;
    private Replay replay;

    ConnectQuickstart(LocalKafka kafka, Path pluginPath, Path workerClasspath, PrintStream out) {
        this.kafka = kafka;
        this.pluginPath = pluginPath;
        this.workerClasspath = workerClasspath;
        this.out = out;
    }

    Outcome run() {
        return run(url -> { });
    }

    /**
     * The demo; {@code whileWorkerRuns} gets the dashboard's URL before the worker stops (bin/quickstart waits there
     * for Enter when run from a terminal).
     */
    Outcome run(Consumer<String> whileWorkerRuns) {
        out.printf("== Kafka Connect: %d orders copied by TransactionalKafkaSinkConnector, 1%% poison ==%n", ORDERS);
        kafka.createTopic(SOURCE, 3, Map.of());
        kafka.createTopic(TARGET, 3, Map.of("max.message.bytes", "10000",
                "message.timestamp.before.max.ms", String.valueOf(Duration.ofDays(1).toMillis())));
        kafka.createTopic(DEAD_LETTERS, 1, Map.of());
        produceOrders();
        out.println("  starting a Connect worker (own JVM, plugin.path=" + pluginPath + ") ...");
        try (LocalConnect connect = LocalConnect.create(kafka, pluginPath, LocalConnect.readClasspath(workerClasspath),
                Map.of("rest.extension.classes", "dev.quarantine.connect.rest.DeadLetterRestExtension",
                        // the replay below goes back to where each dead letter was going: only this topic
                        "quarantine.monitor.replay.destinations.allowed", TARGET)).start()) {
            connect.createConnector(CONNECTOR, connectorConfig());
            connect.awaitRunning(CONNECTOR, 2, Duration.ofSeconds(60));
            out.println("  connector " + CONNECTOR + " is RUNNING with 2 tasks");
            Outcome outcome = awaitAllLanded();
            out.printf("  %s: %d records (%d distinct)%n", TARGET, outcome.copied(), outcome.distinctCopied());
            out.printf("  %s: %d dead letters%n", DEAD_LETTERS, outcome.deadLettered());
            deadLettersByError().forEach((error, count) -> out.printf("    %3d x %s%n", count, error));
            printMonitor(connect, outcome.deadLettered());
            replay = replayAfterTheFix(connect);
            String dashboard = connect.restUrl() + "/dead-letters/ui";
            out.println("  dashboard (the monitor's page, in a browser): " + dashboard);
            whileWorkerRuns.accept(dashboard);
            out.println();
            return outcome;
        }
    }

    /** The replay after the last run, {@code null} before. */
    Replay replay() {
        return replay;
    }

    /**
     * The fix (the target topic's limits raised), then a replay started through the monitor
     * ({@code POST /dead-letters/{topic}/replays}, a replay connector on the worker) until it is DONE.
     */
    private Replay replayAfterTheFix(LocalConnect connect) {
        out.printf("  the fix: %s accepts records up to 1 MiB and of any age%n", TARGET);
        try (Admin admin = kafka.admin()) {
            admin.incrementalAlterConfigs(Map.of(new ConfigResource(ConfigResource.Type.TOPIC, TARGET), List.of(
                    new AlterConfigOp(new ConfigEntry(TopicConfig.MAX_MESSAGE_BYTES_CONFIG, "1048588"),
                            AlterConfigOp.OpType.SET),
                    new AlterConfigOp(new ConfigEntry(TopicConfig.MESSAGE_TIMESTAMP_BEFORE_MAX_MS_CONFIG,
                            String.valueOf(Long.MAX_VALUE)), AlterConfigOp.OpType.SET)))).all().get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while raising the limits of " + TARGET, e);
        } catch (java.util.concurrent.ExecutionException e) {
            throw new IllegalStateException("could not raise the limits of " + TARGET, e.getCause());
        }
        String replays = "/dead-letters/" + DEAD_LETTERS + "/replays";
        // the operator names the destination: dead letters' headers may not choose one without an allow-list
        String id = connect.rest().call("POST", replays, Map.of("destination", TARGET), 202).path("id").asText();
        out.printf("  POST %s%s -> 202, replay %s (a DeadLetterReplayConnector on the worker)%n", connect.restUrl(),
                replays, id);
        JsonNode[] last = new JsonNode[1];
        JsonNode done = Await.value(() -> "replay " + id + " DONE; last answer: " + last[0], DEADLINE, () -> {
            Answer answer = connect.rest().get(replays + "/" + id);
            last[0] = answer.body();
            return answer.status() == 200 && "DONE".equals(answer.body().path("state").asText()) ? last[0] : null;
        });
        JsonNode counts = done.path("counts");
        Set<String> distinct = new HashSet<>();
        committed(TARGET).forEach(r -> distinct.add(new String(r.key(), StandardCharsets.UTF_8)));
        out.printf("  replay %s DONE: replayed %d, dead-lettered again %d; %s now holds %d distinct orders%n", id,
                counts.path("replayed").asLong(), counts.path("deadLetteredAgain").asLong(), TARGET, distinct.size());
        return new Replay(counts.path("replayed").asLong(), counts.path("deadLetteredAgain").asLong(),
                distinct.size());
    }

    private void produceOrders() {
        try (KafkaProducer<byte[], byte[]> producer =
                     new KafkaProducer<>(kafka.clientProps(), new ByteArraySerializer(), new ByteArraySerializer())) {
            long twoDaysAgo = System.currentTimeMillis() - Duration.ofDays(2).toMillis();
            for (int i = 0; i < ORDERS; i++) {
                byte[] key = ("order-" + i).getBytes(StandardCharsets.UTF_8);
                if (i % 100 == 42 && i % 200 == 42) {
                    producer.send(new ProducerRecord<>(SOURCE, null, key, new byte[20_000]));
                } else if (i % 100 == 42) {
                    producer.send(new ProducerRecord<>(SOURCE, null, twoDaysAgo, key, value(i)));
                } else {
                    producer.send(new ProducerRecord<>(SOURCE, key, value(i)));
                }
            }
        }
    }

    private static byte[] value(int i) {
        return ("{\"order\":" + i + "}").getBytes(StandardCharsets.UTF_8);
    }

    private Map<String, String> connectorConfig() {
        return Map.ofEntries(
                Map.entry("connector.class", "dev.quarantine.connect.sink.TransactionalKafkaSinkConnector"),
                Map.entry("tasks.max", "2"),
                Map.entry("topics", SOURCE),
                Map.entry("key.converter", "org.apache.kafka.connect.converters.ByteArrayConverter"),
                Map.entry("value.converter", "org.apache.kafka.connect.converters.ByteArrayConverter"),
                Map.entry("header.converter", "org.apache.kafka.connect.converters.ByteArrayConverter"),
                Map.entry("target.bootstrap.servers", kafka.bootstrapServers()),
                Map.entry("target.topic.format", "copy.${topic}"),
                Map.entry("dlq.topic.name", DEAD_LETTERS),
                Map.entry("consumer.override.auto.offset.reset", "earliest"));
    }

    private Outcome awaitAllLanded() {
        Outcome[] last = new Outcome[1];
        return Await.value(() -> ORDERS + " orders copied or dead-lettered; saw " + last[0], DEADLINE, () -> {
            List<ConsumerRecord<byte[], byte[]>> copied = committed(TARGET);
            Set<String> distinct = new HashSet<>();
            copied.forEach(r -> distinct.add(new String(r.key(), StandardCharsets.UTF_8)));
            last[0] = new Outcome(copied.size(), distinct.size(), committed(DEAD_LETTERS).size());
            return last[0].copied() + last[0].deadLettered() >= ORDERS ? last[0] : null;
        });
    }

    /** What the dead-letter monitor (our REST extension on the worker) answers, once it has counted them all. */
    private void printMonitor(LocalConnect connect, int expected) {
        JsonNode topic = awaitMonitor(connect, expected);
        out.printf("  GET %s/dead-letters/%s (the dead-letter monitor REST extension):%n", connect.restUrl(),
                DEAD_LETTERS);
        out.printf("    total %d, last seen %s, by error class %s, by original topic %s%n",
                topic.path("total").asLong(), topic.path("last_seen").asText(), topic.path("by_error_class"),
                topic.path("by_original_topic"));
    }

    /** Asks until the monitor counts them all: 503 while it starts or rebalances, 404 until it found the DLQ. */
    private JsonNode awaitMonitor(LocalConnect connect, int expected) {
        Answer[] last = new Answer[1];
        return Await.value(() -> "the monitor counting " + expected + " dead letters; last answer: " + last[0],
                DEADLINE, () -> {
                    last[0] = connect.rest().get("/dead-letters/" + DEAD_LETTERS);
                    boolean counted = last[0].status() == 200 && last[0].body().path("total").asLong() >= expected;
                    return counted ? last[0].body() : null;
                });
    }

    private Map<String, Long> deadLettersByError() {
        return committed(DEAD_LETTERS).stream().collect(Collectors.groupingBy(r -> {
            Header header = r.headers().lastHeader(DeadLetterHeaders.CONNECT_EXCEPTION);
            return header == null ? "(no header)" : new String(header.value(), StandardCharsets.UTF_8);
        }, TreeMap::new, Collectors.counting()));
    }

    private List<ConsumerRecord<byte[], byte[]>> committed(String topic) {
        return TopicReader.readCommitted(kafka, topic, Duration.ofSeconds(30));
    }
}
