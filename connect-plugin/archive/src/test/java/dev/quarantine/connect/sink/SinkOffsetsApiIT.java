package dev.quarantine.connect.sink;

import static dev.quarantine.connect.sink.TestData.header;
import static dev.quarantine.connect.sink.TestData.props;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.quarantine.sandbox.Await;
import dev.quarantine.sandbox.LocalCluster;
import dev.quarantine.sandbox.TopicReader;

/**
 * Connect's offsets REST API (KIP-875: {@code PATCH} and {@code DELETE /connectors/{name}/offsets}) on a real worker
 * (its own JVM, the plugin from plugin.path): the tasks resume from the sink's progress records, which the API must
 * change as it changes Connect's consumer group.
 */
class SinkOffsetsApiIT {

    @RegisterExtension
    static final LocalCluster cluster = LocalCluster.sharedBroker().withWorkers(1, FaultSuite::worker);

    private static final Duration LANDED = Duration.ofSeconds(120);

    @Test
    void resumesASourceTopicCreatedAgainFromTheOffsetAlteredWhileTheConnectorWasStopped() throws Exception {
        Copy copy = new Copy("offsets-again");
        // named, so that the stopped connector looks the new topic's id up (the target cluster is taken for the source
        // only while it holds the connector's group with members)
        copy.config.put("consumer.override.bootstrap.servers", cluster.kafka().bootstrapServers());
        produce(copy.source, 0, 100);
        copy.start();
        try (TopicReader copied = TopicReader.open(cluster.kafka(), List.of(copy.target))) {
            copied.awaitAtLeast(100, LANDED);

            stop(copy.name);
            recreate(copy.source);
            produce(copy.source, 1_000, 150); // the new topic's offsets 0..149
            offsets(copy.name, "PATCH", Map.of("offsets", List.of(Map.of("partition", Map.of("kafka_topic",
                    copy.source, "kafka_partition", 0), "offset", Map.of("kafka_offset", 50)))));
            resume(copy.name);

            copied.awaitAtLeast(200, LANDED);
            assertThat(ids(copied.drain(Duration.ofSeconds(5))))
                    .as("the old topic's 100, then the new topic's records from the altered offset 50 on, once")
                    .containsExactlyElementsOf(IntStream.concat(IntStream.range(0, 100), IntStream.range(1_050, 1_150))
                            .boxed().toList());
        }
        cluster.worker().deleteConnector(copy.name);
    }

    @Test
    void resetsEveryPartitionWithProgressAlsoThoseConnectsConsumerGroupDoesNotKnow() throws Exception {
        Copy copy = new Copy("offsets-reset");
        produce(copy.source, 0, 100);
        copy.start();
        try (TopicReader copied = TopicReader.open(cluster.kafka(), List.of(copy.target))) {
            copied.awaitAtLeast(100, LANDED);

            stop(copy.name);
            deleteGroup("connect-" + copy.name); // as an operator cleaning up, or a worker killed before its commit
            offsets(copy.name, "DELETE", null);
            resume(copy.name);

            copied.awaitAtLeast(200, LANDED);
            assertThat(ids(copied.drain(Duration.ofSeconds(5))))
                    .as("all 100, then all 100 again from the start after the reset")
                    .containsExactlyElementsOf(IntStream.concat(IntStream.range(0, 100), IntStream.range(0, 100))
                            .boxed().toList());
        }
        cluster.worker().deleteConnector(copy.name);
    }

    /** A source topic of one partition, its copy and a DLQ, and one task copying it. */
    private static final class Copy {
        final String name;
        final String source;
        final String target;
        final Map<String, String> config;

        Copy(String test) {
            name = test + "-" + Long.toHexString(System.nanoTime()).substring(6);
            source = name + "-in";
            target = "copy." + source;
            cluster.kafka().createTopic(source, 1, Map.of());
            cluster.kafka().createTopic(target, 1, Map.of());
            cluster.kafka().createTopic(name + "-dlq", 1, Map.of());
            config = props("connector.class", FaultSuite.PLUGIN, "name", name, "tasks.max", "1", "topics", source,
                    "key.converter", "org.apache.kafka.connect.converters.ByteArrayConverter",
                    "value.converter", "org.apache.kafka.connect.converters.ByteArrayConverter",
                    "header.converter", "org.apache.kafka.connect.converters.ByteArrayConverter",
                    "target.bootstrap.servers", cluster.kafka().bootstrapServers(),
                    "target.topic.format", "copy.${topic}", "dlq.topic.name", name + "-dlq",
                    "consumer.override.isolation.level", "read_committed");
        }

        void start() {
            cluster.worker().createConnector(name, config);
            cluster.worker().awaitRunning(name, 1, Duration.ofSeconds(60));
        }
    }

    /** Stops the connector and waits until Connect says it is STOPPED (the offsets API refuses it before). */
    private static void stop(String connector) {
        cluster.worker().rest().call("PUT", "/connectors/" + connector + "/stop", null, 202, 204, 200);
        Await.until("connector " + connector + " STOPPED", Duration.ofSeconds(60), () -> "STOPPED".equals(
                cluster.worker().status(connector).path("connector").path("state").asText()));
    }

    /** Sends an offsets request until Connect accepts it (it refuses while the stopped tasks still leave). */
    private static void offsets(String connector, String method, Object body) {
        Await.until(method + " offsets of " + connector + " accepted", Duration.ofSeconds(60), () -> {
            try {
                cluster.worker().rest().call(method, "/connectors/" + connector + "/offsets", body, 200);
                return true;
            } catch (IllegalStateException notStoppedYet) {
                return false;
            }
        });
    }

    /** Deletes a consumer group once its members (the stopped tasks' consumers) left it. */
    private static void deleteGroup(String group) {
        try (Admin admin = cluster.kafka().admin()) {
            Await.until("consumer group " + group + " deleted", Duration.ofSeconds(60), () -> {
                try {
                    admin.deleteConsumerGroups(List.of(group)).all().get(30, TimeUnit.SECONDS);
                    return true;
                } catch (Exception stillHasMembers) {
                    return false; // GroupNotEmptyException until the stopped tasks' consumers left
                }
            });
        }
    }

    private static void resume(String connector) {
        cluster.worker().rest().call("PUT", "/connectors/" + connector + "/resume", null, 202, 204, 200);
        cluster.worker().awaitRunning(connector, 1, Duration.ofSeconds(60));
    }

    /** Deletes a topic and creates it again (one partition): a new topic id, offsets from 0. */
    private static void recreate(String topic) throws Exception {
        try (Admin admin = cluster.kafka().admin()) {
            admin.deleteTopics(List.of(topic)).all().get(30, TimeUnit.SECONDS);
        }
        Await.until(() -> "topic " + topic + " created again after its deletion", Duration.ofSeconds(30), () -> {
            try {
                cluster.kafka().createTopic(topic, 1, Map.of());
                return true;
            } catch (IllegalStateException stillBeingDeleted) {
                return false;
            }
        });
    }

    /** Records with ids {@code first..first+count-1} (header {@code id}), committed in one transaction. */
    private static void produce(String topic, int first, int count) {
        Properties props = cluster.kafka().clientProps();
        props.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, topic + "-writer");
        try (KafkaProducer<byte[], byte[]> producer =
                     new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer())) {
            producer.initTransactions();
            producer.beginTransaction();
            for (int id = first; id < first + count; id++) {
                RecordHeaders headers = new RecordHeaders();
                headers.add("id", String.valueOf(id).getBytes(StandardCharsets.UTF_8));
                producer.send(new ProducerRecord<>(topic, 0, null, ("key-" + id).getBytes(StandardCharsets.UTF_8),
                        ("id=" + id + ";").getBytes(StandardCharsets.UTF_8), headers));
            }
            producer.commitTransaction();
        }
    }

    private static List<Integer> ids(List<ConsumerRecord<byte[], byte[]>> records) {
        return records.stream().map(r -> Integer.parseInt(header(r, "id"))).toList();
    }
}
