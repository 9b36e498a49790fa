package dev.quarantine.connect.sink;

import static dev.quarantine.connect.sink.TestData.header;
import static dev.quarantine.connect.sink.TestData.props;
import static dev.quarantine.sandbox.ConnectRest.validationErrors;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.zip.ZipFile;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import com.fasterxml.jackson.databind.JsonNode;

import dev.quarantine.connect.BuiltPlugin;
import dev.quarantine.sandbox.Await;
import dev.quarantine.sandbox.LocalCluster;
import dev.quarantine.sandbox.LocalConnect;
import dev.quarantine.sandbox.LocalKafka;
import dev.quarantine.sandbox.TopicReader;
import dev.quarantine.sandbox.Utf8;
import dev.quarantine.txn.DeadLetterHeaders;

/**
 * End to end: a real Connect worker in distributed mode, its own JVM, with plugin.path = the built plugin folder and
 * plugin.discovery=service_load, copying from and to the local broker.
 */
class TransactionalKafkaSinkConnectorIT {

    private static final String PLUGIN = TransactionalKafkaSinkConnector.class.getName();
    /** The project's version, set by the build (failsafe), which the plugin's jar manifest must carry. */
    private static final String VERSION = System.getProperty("quarantine.version", "(quarantine.version not set)");
    private static final Duration LANDED = Duration.ofSeconds(120);
    private static final String ISOLATION = "consumer.override.isolation.level";
    private static final long TWO_DAYS_AGO = System.currentTimeMillis() - TimeUnit.DAYS.toMillis(2);

    @RegisterExtension
    static final LocalCluster cluster = LocalCluster.sharedBroker().withWorkers(1, FaultSuite::worker);

    @Test
    void workerLoadsThePluginFromItsArchiveByServiceLoader() throws Exception {
        JsonNode plugins = cluster.worker().get("/connector-plugins?connectorsOnly=true");

        assertThat(plugins.findValuesAsText("class")).contains(PLUGIN);
        String version = null;
        for (JsonNode plugin : plugins) {
            if (PLUGIN.equals(plugin.path("class").asText())) {
                version = plugin.path("version").asText();
            }
        }
        assertThat(version).as("the version the worker reports, from the plugin's jar manifest").isEqualTo(VERSION);
        Path zip;
        try (var files = Files.list(BuiltPlugin.PLUGIN_PATH.getParent())) {
            zip = files.filter(p -> p.getFileName().toString().matches("kafka-quarantine-connect-.*\\.zip"))
                    .findFirst().orElseThrow();
        }
        try (ZipFile archive = new ZipFile(zip.toFile())) {
            List<String> names = archive.stream().map(e -> e.getName()).toList();
            assertThat(names).anyMatch(n -> n.endsWith("/manifest.json"))
                    .anyMatch(n -> n.endsWith("/etc/transactional-sink.json"))
                    .anyMatch(n -> n.endsWith("/etc/connect-distributed.properties"));
            List<String> jars = names.stream().filter(n -> n.endsWith(".jar")).map(n -> n.replaceAll(".*/", ""))
                    .toList();
            assertThat(jars).contains("connect-sink-" + VERSION + ".jar", "connect-monitor-" + VERSION + ".jar",
                    "txn-send-" + VERSION + ".jar")
                    .as("the worker provides Kafka's clients and Connect, slf4j and JAX-RS/Jersey")
                    .noneMatch(j -> j.matches("(kafka-clients|connect-(api|runtime|json|transforms)|slf4j|jersey"
                            + "|jakarta\\.ws\\.rs|zstd-jni|lz4-java|snappy-java).*"));
        }
    }

    @Test
    void copies10000RecordsExactlyOnceAndDeadLettersTheOnePercentPoisonOfSeveralKinds() {
        Topics topics = new Topics("e2e");
        List<Integer> poison = produce(topics, 0, 10_000);
        Map<String, String> config = connectorConfig(topics, "transforms", "via",
                "transforms.via.type", "org.apache.kafka.connect.transforms.InsertHeader",
                "transforms.via.header", "via", "transforms.via.value.literal", "quarantine");
        cluster.worker().createConnector(topics.name, config);
        cluster.worker().awaitRunning(topics.name, 2, Duration.ofSeconds(60));

        try (TopicReader copied = TopicReader.open(cluster.kafka(), topics.targets());
             TopicReader letters = TopicReader.open(cluster.kafka(), List.of(topics.dlq))) {
            copied.awaitAtLeast(9_900, LANDED);
            letters.awaitAtLeast(100, LANDED);
            List<ConsumerRecord<byte[], byte[]>> all = copied.drain(Duration.ofSeconds(3));
            assertExactlyOnce(all, letters.drain(Duration.ZERO), 10_000, poison);
            assertThat(all).allSatisfy(r -> assertThat(header(r, "via")).as("the SMT ran").isEqualTo("quarantine"));
            assertThat(all).allSatisfy(r -> assertThat(Utf8.text(r.key())).startsWith("key-"));
            ConsumerRecord<byte[], byte[]> letter = letters.drain(Duration.ZERO).get(0);
            assertThat(header(letter, DeadLetterHeaders.CONNECT_TOPIC)).startsWith(topics.prefix);
            assertThat(header(letter, DeadLetterHeaders.CONNECT_CONNECTOR_NAME)).isEqualTo(topics.name);
            assertThat(header(letter, DeadLetterHeaders.CONNECT_EXCEPTION)).isNotBlank();
            assertThat(header(letter, DeadLetterHeaders.ERROR_CATEGORY)).isEqualTo("RECORD");
            assertThat(header(letter, "id")).isNotBlank();
        }
        assertThat(LocalConnect.isRunning(cluster.worker().status(topics.name), 2)).isTrue();
        cluster.worker().deleteConnector(topics.name);
    }

    @Test
    void staysExactlyOnceWhenTheWorkerIsKilledThreeTimesMidRun() throws Exception {
        Topics topics = new Topics("crash");
        Map<String, String> config = connectorConfig(topics, "consumer.override.max.poll.records", "100");
        AtomicInteger produced = new AtomicInteger();
        List<Integer> poison = java.util.Collections.synchronizedList(new ArrayList<>());
        int total = 9_000;
        Thread producer = new Thread(() -> {
            for (int from = 0; from < total; from += 150) {
                poison.addAll(produce(topics, from, from + 150));
                produced.set(from + 150);
                try {
                    Thread.sleep(300); // a steady stream for about 20 s, so the kills land mid-run
                } catch (InterruptedException e) {
                    return;
                }
            }
        }, "crash-test-producer");
        cluster.worker().createConnector(topics.name, config);
        cluster.worker().awaitRunning(topics.name, 2, Duration.ofSeconds(60));
        producer.start();
        try (TopicReader copied = TopicReader.open(cluster.kafka(), topics.targets());
             TopicReader letters = TopicReader.open(cluster.kafka(), List.of(topics.dlq))) {
            for (int kill = 1; kill <= 3; kill++) {
                int landed = copied.size() + letters.size();
                copied.awaitAtLeast(copied.size() + 300, LANDED);
                cluster.worker().kill();
                assertThat(cluster.worker().isAlive()).isFalse();
                cluster.worker().start();
                cluster.worker().awaitRunning(topics.name, 2, Duration.ofSeconds(90));
                assertThat(landed).as("kill %d landed mid-run", kill).isLessThan(total);
            }
            producer.join(TimeUnit.MINUTES.toMillis(2));
            assertThat(produced.get()).isEqualTo(total);
            copied.awaitAtLeast(total - poison.size(), LANDED);
            letters.awaitAtLeast(poison.size(), LANDED);
            assertExactlyOnce(copied.drain(Duration.ofSeconds(3)), letters.drain(Duration.ZERO), total, poison);
        }
        cluster.worker().deleteConnector(topics.name);
    }

    @Test
    void reportsBadSettingsOnTheirKeysThroughTheValidateEndpoint() {
        cluster.kafka().createTopic("validate.dlq");
        Map<String, List<String>> missing = validationErrors(cluster.worker().validate(PLUGIN, props(
                "connector.class", PLUGIN, "name", "v1", "topics", "orders",
                "target.topic.format", "copy", "send.errors.tolerance", "maybe")));
        assertThat(missing).containsKeys("target.bootstrap.servers", "target.topic.format", "send.errors.tolerance");

        Map<String, List<String>> noDlq = validationErrors(cluster.worker().validate(PLUGIN, props(
                "connector.class", PLUGIN, "name", "v2", "topics", "orders", ISOLATION, "read_committed",
                "target.bootstrap.servers", cluster.kafka().bootstrapServers(),
                "target.topic.format", "copy.${topic}")));
        assertThat(noDlq).containsOnlyKeys("dlq.topic.name");

        Map<String, List<String>> selfCopy = validationErrors(cluster.worker().validate(PLUGIN, props(
                "connector.class", PLUGIN, "name", "v3", "topics", "orders,validate.dlq",
                ISOLATION, "read_committed",
                "target.bootstrap.servers", cluster.kafka().bootstrapServers(), "target.topic.format", "${topic}",
                "dlq.topic.name", "validate.dlq")));
        assertThat(selfCopy).containsOnlyKeys("target.topic.format", "dlq.topic.name");
        assertThat(selfCopy.get("target.topic.format")).anySatisfy(m -> assertThat(m).contains("onto itself"));

        Map<String, List<String>> absentDlq = validationErrors(cluster.worker().validate(PLUGIN, props(
                "connector.class", PLUGIN, "name", "v4", "topics", "orders", ISOLATION, "read_committed",
                "target.bootstrap.servers", cluster.kafka().bootstrapServers(), "target.topic.format", "copy.${topic}",
                "dlq.topic.name", "no-such-dlq")));
        assertThat(absentDlq).containsOnlyKeys("dlq.topic.name");
        assertThat(absentDlq.get("dlq.topic.name").get(0)).contains("does not exist");
    }

    @Test
    void reportsSettingsThatContradictEachOtherOnTheirKeysThroughTheValidateEndpoint() {
        String prefix = "contradict-" + Long.toHexString(System.nanoTime()).substring(6);
        cluster.kafka().createTopic(prefix + "-dlq", 1, Map.of("max.message.bytes", "100000"));
        cluster.kafka().createTopic(prefix + "-in", 4, Map.of());
        cluster.kafka().createTopic("copy." + prefix + "-in", 1, Map.of());
        Map<String, String> base = props("connector.class", PLUGIN, "name", prefix, "topics", prefix + "-in",
                ISOLATION, "read_committed",
                "target.bootstrap.servers", cluster.kafka().bootstrapServers(), "target.topic.format", "copy.${topic}",
                "dlq.topic.name", prefix + "-dlq");

        Map<String, String> aboveProducer = new HashMap<>(base);
        aboveProducer.put("dlq.payload.max.bytes", "50000");
        aboveProducer.put("target.producer.max.request.size", "20000");
        aboveProducer.put("target.producer.buffer.memory", "lots");
        Map<String, List<String>> producerLimits = validationErrors(cluster.worker().validate(PLUGIN,
                aboveProducer));
        assertThat(producerLimits).as("problems of settings outside the ConfigDef are kept, on their keys")
                .containsOnlyKeys("dlq.payload.max.bytes", "target.producer.buffer.memory");
        assertThat(producerLimits.get("dlq.payload.max.bytes")).singleElement().asString()
                .contains("target.producer.max.request.size=20000");

        Map<String, String> aboveTopic = new HashMap<>(base);
        aboveTopic.put("dlq.payload.max.bytes", "500000");
        aboveTopic.put("target.partition.mapping", "keep");
        Map<String, List<String>> topicLimits = validationErrors(cluster.worker().validate(PLUGIN, aboveTopic));
        assertThat(topicLimits).containsOnlyKeys("dlq.payload.max.bytes", "target.partition.mapping");
        assertThat(topicLimits.get("dlq.payload.max.bytes")).singleElement().asString()
                .contains("max.message.bytes (100000)");
        assertThat(topicLimits.get("target.partition.mapping")).singleElement().asString()
                .contains("has 1 partitions and source topic " + prefix + "-in has 4");

        assertThat(validationErrors(cluster.worker().validate(PLUGIN, base))).as("hash maps what 1 lacks")
                .isEmpty();
    }

    @Test
    void failsTheTaskNamingThePoisonRecordWhenToleranceIsNone() {
        Topics topics = new Topics("strict");
        List<Integer> poison = produce(topics, 0, 400);
        Map<String, String> config = connectorConfig(topics, "send.errors.tolerance", "none", "dlq.topic.name", "");
        cluster.worker().createConnector(topics.name, config);

        JsonNode failed = cluster.worker().awaitFailedTask(topics.name, Duration.ofSeconds(60));

        assertThat(failed.path("trace").asText()).containsPattern(topics.prefix + "-[ab]-\\d@\\d+")
                .contains("send.errors.tolerance=none");
        assertThat(poison).isNotEmpty();
        cluster.worker().deleteConnector(topics.name);
    }

    @Test
    void refusesAConnectorWhoseConsumerWouldReadAbortedSourceTransactionsAndCopiesOnlyCommittedOnes() {
        String prefix = "aborted-" + Long.toHexString(System.nanoTime()).substring(6);
        String source = prefix + "-in";
        cluster.kafka().createTopic(source, 1, Map.of());
        cluster.kafka().createTopic("copy." + source, 1, Map.of());
        cluster.kafka().createTopic(prefix + "-dlq", 1, Map.of());
        produceInTransactions(source, List.of(true, false, true));
        Map<String, String> config = props("connector.class", PLUGIN, "name", prefix, "tasks.max", "1",
                "topics", source,
                "key.converter", "org.apache.kafka.connect.converters.ByteArrayConverter",
                "value.converter", "org.apache.kafka.connect.converters.ByteArrayConverter",
                "header.converter", "org.apache.kafka.connect.converters.ByteArrayConverter",
                "target.bootstrap.servers", cluster.kafka().bootstrapServers(), "target.topic.format", "copy.${topic}",
                "dlq.topic.name", prefix + "-dlq");

        assertThat(validationErrors(cluster.worker().validate(PLUGIN, config))).as("as a user writes it")
                .containsOnlyKeys(ISOLATION).extractingByKey(ISOLATION).asString()
                .contains("is not set", ISOLATION + "=read_committed", "connector.client.config.override.policy");
        config.put(ISOLATION, "read_uncommitted");
        assertThat(validationErrors(cluster.worker().validate(PLUGIN, config))).containsOnlyKeys(ISOLATION);
        assertThatThrownBy(() -> cluster.worker().createConnector(prefix, config))
                .as("Connect refuses to create it").hasMessageContaining(ISOLATION);

        config.put(ISOLATION, "read_committed");
        cluster.worker().createConnector(prefix, config);
        cluster.worker().awaitRunning(prefix, 1, Duration.ofSeconds(60));
        try (TopicReader copied = TopicReader.open(cluster.kafka(), List.of("copy." + source))) {
            copied.awaitAtLeast(200, LANDED);
            List<Integer> ids = copied.drain(Duration.ofSeconds(5)).stream().map(r -> id(r)).toList();
            assertThat(ids).as("the 100 + 100 committed records once, none of the aborted 100..199")
                    .containsExactlyElementsOf(IntStream.concat(IntStream.range(0, 100), IntStream.range(200, 300))
                            .boxed().toList());
        }
        cluster.worker().deleteConnector(prefix);
    }

    @Test
    void resumesFromOffsetsAlteredAndResetThroughConnectsOffsetsApi() {
        String prefix = "offsets-" + Long.toHexString(System.nanoTime()).substring(6);
        String source = prefix + "-in";
        Map<String, String> config = onePartitionCopy(prefix, source);
        produceInTransactions(source, List.of(true));
        cluster.worker().createConnector(prefix, config);
        cluster.worker().awaitRunning(prefix, 1, Duration.ofSeconds(60));
        try (TopicReader copied = TopicReader.open(cluster.kafka(), List.of("copy." + source))) {
            copied.awaitAtLeast(100, LANDED);

            whileStopped(prefix, () -> cluster.worker().rest().call("PATCH", "/connectors/" + prefix + "/offsets",
                    Map.of("offsets", List.of(Map.of("partition", Map.of("kafka_topic", source, "kafka_partition", 0),
                            "offset", Map.of("kafka_offset", 50)))), 200));
            copied.awaitAtLeast(150, LANDED);
            whileStopped(prefix, () -> cluster.worker().rest().call("DELETE", "/connectors/" + prefix + "/offsets",
                    null, 200));
            copied.awaitAtLeast(250, LANDED);

            List<Integer> ids = copied.drain(Duration.ofSeconds(5)).stream().map(r -> id(r)).toList();
            assertThat(ids).as("all 100, again from the altered offset 50, then again from the reset to the start")
                    .containsExactlyElementsOf(IntStream.concat(IntStream.concat(IntStream.range(0, 100),
                            IntStream.range(50, 100)), IntStream.range(0, 100)).boxed().toList());
        }
        cluster.worker().deleteConnector(prefix);
    }

    @Test
    void advancesConnectsConsumerGroupPastTheRecordsATransformDrops() throws Exception {
        String prefix = "dropped-" + Long.toHexString(System.nanoTime()).substring(6);
        String source = prefix + "-in";
        Map<String, String> config = onePartitionCopy(prefix, source,
                "transforms", "drop", "transforms.drop.type", "org.apache.kafka.connect.transforms.Filter");
        config.putAll(onlyWithHeader("drop", "late"));
        produceMarked(source, 0, 100, 50, "late");
        cluster.worker().createConnector(prefix, config);
        cluster.worker().awaitRunning(prefix, 1, Duration.ofSeconds(60));

        try (TopicReader copied = TopicReader.open(cluster.kafka(), List.of("copy." + source));
             Admin admin = cluster.kafka().admin()) {
            copied.awaitAtLeast(50, LANDED);
            TopicPartition partition = new TopicPartition(source, 0);
            Await.until(() -> "Connect's group connect-" + prefix + " at offset 100 of " + partition, LANDED, () -> {
                try {
                    OffsetAndMetadata committed = admin.listConsumerGroupOffsets("connect-" + prefix)
                            .partitionsToOffsetAndMetadata().get(30, TimeUnit.SECONDS).get(partition);
                    return committed != null && committed.offset() == 100;
                } catch (Exception e) {
                    return false;
                }
            });
            assertThat(copied.drain(Duration.ofSeconds(3)).stream().map(r -> id(r)).toList())
                    .as("the 50 the transform kept, once").containsExactlyElementsOf(IntStream.range(0, 50).boxed()
                            .toList());
        }
        cluster.worker().deleteConnector(prefix);
    }

    @Test
    void reportsARecordConnectsTransformsFailOnToConnectsDeadLetterQueueOnceAcrossARestart() throws Exception {
        String prefix = "errant-" + Long.toHexString(System.nanoTime()).substring(6);
        String source = prefix + "-in";
        String errors = prefix + "-connect-errors";
        cluster.kafka().createTopic(errors, 1, Map.of());
        Map<String, String> config = onePartitionCopy(prefix, source,
                "errors.tolerance", "all", "errors.deadletterqueue.topic.name", errors,
                "errors.deadletterqueue.topic.replication.factor", "1",
                "transforms", "fail", "transforms.fail.type", "org.apache.kafka.connect.transforms.Cast$Value",
                "transforms.fail.spec", "int32");
        config.putAll(onlyWithHeader("fail", "bad"));
        produceMarked(source, 0, 60, 50, "bad");
        cluster.worker().createConnector(prefix, config);
        cluster.worker().awaitRunning(prefix, 1, Duration.ofSeconds(60));

        try (TopicReader copied = TopicReader.open(cluster.kafka(), List.of("copy." + source));
             TopicReader reported = TopicReader.open(cluster.kafka(), List.of(errors))) {
            copied.awaitAtLeast(50, LANDED);
            reported.awaitAtLeast(10, LANDED);
            cluster.worker().restartConnector(prefix); // the task reads its progress again and seeks there
            cluster.worker().awaitRunning(prefix, 1, Duration.ofSeconds(60));
            produceMarked(source, 60, 65, 65, "bad");
            copied.awaitAtLeast(55, LANDED);

            assertThat(copied.drain(Duration.ofSeconds(3)).stream().map(r -> id(r)).toList())
                    .as("the 55 records the transform passed, once")
                    .containsExactlyElementsOf(IntStream.concat(IntStream.range(0, 50), IntStream.range(60, 65))
                            .boxed().toList());
            assertThat(reported.drain(Duration.ofSeconds(5)).stream().map(r -> id(r)).toList())
                    .as("the 10 records the transform failed on, each reported to Connect's DLQ once, not again"
                            + " when the restarted task read on from its progress")
                    .containsExactlyElementsOf(IntStream.range(50, 60).boxed().toList());
        }
        cluster.worker().deleteConnector(prefix);
    }

    /**
     * Topics {@code source}, {@code copy.<source>} and {@code <prefix>-dlq} of one partition each, and the config of
     * connector {@code prefix} copying the source there with one task, byte-array converters and a read_committed
     * consumer; {@code more} settings added.
     */
    private static Map<String, String> onePartitionCopy(String prefix, String source, String... more) {
        cluster.kafka().createTopic(source, 1, Map.of());
        cluster.kafka().createTopic("copy." + source, 1, Map.of());
        cluster.kafka().createTopic(prefix + "-dlq", 1, Map.of());
        Map<String, String> config = props("connector.class", PLUGIN, "name", prefix, "tasks.max", "1",
                "topics", source, "target.bootstrap.servers", cluster.kafka().bootstrapServers(),
                "key.converter", "org.apache.kafka.connect.converters.ByteArrayConverter",
                "value.converter", "org.apache.kafka.connect.converters.ByteArrayConverter",
                "header.converter", "org.apache.kafka.connect.converters.ByteArrayConverter",
                "target.topic.format", "copy.${topic}", "dlq.topic.name", prefix + "-dlq", ISOLATION, "read_committed");
        config.putAll(props(more));
        return config;
    }

    /**
     * The settings that apply transform {@code transform} only to records with a header {@code header}: Connect's
     * {@code HasHeaderKey} predicate, named after the header.
     */
    private static Map<String, String> onlyWithHeader(String transform, String header) {
        return props("transforms." + transform + ".predicate", header, "predicates", header,
                "predicates." + header + ".type", "org.apache.kafka.connect.transforms.predicates.HasHeaderKey",
                "predicates." + header + ".name", header);
    }

    /** Records {@code from} to {@code to} (ids), those from {@code marked} on with an empty header {@code mark}. */
    private static void produceMarked(String topic, int from, int to, int marked, String mark) {
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(cluster.kafka().clientProps(),
                new ByteArraySerializer(), new ByteArraySerializer())) {
            for (int id = from; id < to; id++) {
                RecordHeaders headers = new RecordHeaders();
                headers.add("id", String.valueOf(id).getBytes(StandardCharsets.UTF_8));
                if (id >= marked) {
                    headers.add(mark, new byte[0]);
                }
                producer.send(new ProducerRecord<>(topic, 0, null, ("key-" + id).getBytes(StandardCharsets.UTF_8),
                        ("id=" + id + ";").getBytes(StandardCharsets.UTF_8), headers));
            }
        }
    }

    /** Stops the connector, runs {@code change} once Connect accepts it (the connector STOPPED), resumes it. */
    private static void whileStopped(String connector, Runnable change) {
        cluster.worker().rest().call("PUT", "/connectors/" + connector + "/stop", null, 202, 204, 200);
        Await.until("offsets of " + connector + " changed while it is stopped", Duration.ofSeconds(60), () -> {
            try {
                change.run();
                return true;
            } catch (IllegalStateException notStoppedYet) {
                return false;
            }
        });
        cluster.worker().rest().call("PUT", "/connectors/" + connector + "/resume", null, 202, 204, 200);
        cluster.worker().awaitRunning(connector, 1, Duration.ofSeconds(60));
    }

    /** One transaction of 100 records per entry, committed when it is true, aborted otherwise; ids count on. */
    private static void produceInTransactions(String topic, List<Boolean> commits) {
        Properties props = cluster.kafka().clientProps();
        props.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, topic + "-writer");
        try (KafkaProducer<byte[], byte[]> producer =
                     new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer())) {
            producer.initTransactions();
            int id = 0;
            for (boolean commit : commits) {
                producer.beginTransaction();
                for (int i = 0; i < 100; i++, id++) {
                    RecordHeaders headers = new RecordHeaders();
                    headers.add("id", String.valueOf(id).getBytes(StandardCharsets.UTF_8));
                    producer.send(new ProducerRecord<>(topic, 0, null, ("key-" + id).getBytes(StandardCharsets.UTF_8),
                            ("id=" + id + ";").getBytes(StandardCharsets.UTF_8), headers));
                }
                producer.flush();
                if (commit) {
                    producer.commitTransaction();
                } else {
                    producer.abortTransaction();
                }
            }
        }
    }

    /**
     * Source topics {@code <p>-a} (2 partitions) and {@code <p>-b}, copied to {@code copy.<p>-a} (4 KB max, one hour
     * timestamp window) and {@code copy.<p>-b} (compacted), and a DLQ.
     */
    private static final class Topics {
        final String prefix;
        final String name;
        final String a;
        final String b;
        final String dlq;

        Topics(String test) {
            prefix = test + "-" + Long.toHexString(System.nanoTime()).substring(6);
            name = prefix + "-copy";
            a = prefix + "-a";
            b = prefix + "-b";
            dlq = prefix + "-dlq";
            cluster.kafka().createTopic(a, 2, Map.of());
            cluster.kafka().createTopic(b, 1, Map.of());
            cluster.kafka().createTopic("copy." + a, 2, Map.of("max.message.bytes", "4096",
                    "message.timestamp.before.max.ms", String.valueOf(TimeUnit.HOURS.toMillis(1))));
            cluster.kafka().createTopic("copy." + b, 1, Map.of("cleanup.policy", "compact"));
            cluster.kafka().createTopic(dlq, 1, Map.of());
        }

        List<String> targets() {
            return List.of("copy." + a, "copy." + b);
        }
    }

    /** The config of a connector copying {@code topics} with two tasks; {@code more} settings added or replaced. */
    private static Map<String, String> connectorConfig(Topics topics, String... more) {
        Map<String, String> config = props(
                "connector.class", PLUGIN,
                "tasks.max", "2",
                "topics", topics.a + "," + topics.b,
                "key.converter", "org.apache.kafka.connect.converters.ByteArrayConverter",
                "value.converter", "org.apache.kafka.connect.converters.ByteArrayConverter",
                "header.converter", "org.apache.kafka.connect.converters.ByteArrayConverter",
                "target.bootstrap.servers", cluster.kafka().bootstrapServers(),
                "target.topic.format", "copy.${topic}",
                "dlq.topic.name", topics.dlq,
                "consumer.override.isolation.level", "read_committed");
        config.putAll(props(more));
        return config;
    }

    /**
     * Produces records {@code from..to-1}: 70% to topic a, 30% to b; value {@code id=<i>;...}, header {@code id}. One
     * in a hundred is poison for its target: too large (i % 300 == 0), a timestamp two days old (i % 300 == 100), a
     * null key for the compacted copy of b (i % 300 == 199). Returns the poison ids.
     */
    private static List<Integer> produce(Topics topics, int from, int to) {
        Properties props = cluster.kafka().clientProps();
        props.put(ProducerConfig.LINGER_MS_CONFIG, "5");
        List<Integer> poison = new ArrayList<>();
        try (KafkaProducer<byte[], byte[]> producer =
                     new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer())) {
            for (int i = from; i < to; i++) {
                String topic = i % 10 < 7 ? topics.a : topics.b;
                byte[] key = ("key-" + i).getBytes(StandardCharsets.UTF_8);
                byte[] value = ("id=" + i + ";").getBytes(StandardCharsets.UTF_8);
                Long timestamp = null;
                if (i % 300 == 0) {
                    value = Arrays.copyOf(value, 6000);
                    poison.add(i);
                } else if (i % 300 == 100) {
                    timestamp = TWO_DAYS_AGO;
                    poison.add(i);
                } else if (i % 300 == 199) {
                    key = null;
                    poison.add(i);
                }
                RecordHeaders headers = new RecordHeaders();
                headers.add("id", String.valueOf(i).getBytes(StandardCharsets.UTF_8));
                producer.send(new ProducerRecord<>(topic, null, timestamp, key, value, headers));
            }
        }
        return poison;
    }

    private static void assertExactlyOnce(List<ConsumerRecord<byte[], byte[]>> copied,
                                          List<ConsumerRecord<byte[], byte[]>> letters, int total,
                                          List<Integer> poison) {
        List<Integer> copiedIds = copied.stream().map(r -> id(r)).toList();
        List<Integer> letterIds = letters.stream().map(r -> id(r)).toList();
        Set<Integer> expectedCopied = IntStream.range(0, total).boxed().collect(Collectors.toSet());
        poison.forEach(expectedCopied::remove);

        assertThat(poison).hasSize(total / 100);
        assertThat(copiedIds).as("target topics: each good record exactly once").hasSize(total - poison.size())
                .doesNotHaveDuplicates();
        assertThat(new HashSet<>(copiedIds)).isEqualTo(expectedCopied);
        assertThat(letterIds).as("dead letters: each poison record exactly once").hasSize(poison.size())
                .doesNotHaveDuplicates().containsExactlyInAnyOrderElementsOf(poison);
    }

    private static int id(ConsumerRecord<byte[], byte[]> record) {
        return Integer.parseInt(header(record, "id"));
    }
}
