package dev.quarantine.connect.rest;

import java.nio.charset.StandardCharsets;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.IntFunction;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.connect.health.ConnectClusterState;
import org.apache.kafka.connect.health.ConnectorHealth;

import dev.quarantine.sandbox.LocalKafka;
import dev.quarantine.connect.rest.aggregation.Monitor;
import dev.quarantine.connect.rest.aggregation.MonitorStreams;
import dev.quarantine.connect.rest.discovery.SubscriptionWidth;
import dev.quarantine.connect.rest.discovery.TopicDiscovery;

/** The monitor run in the test's own JVM against a real broker, without a Connect worker: no connectors to read. */
public final class InProcessMonitor {

    private InProcessMonitor() {
    }

    /**
     * A monitor (not started) of the worker settings {@code settings}, which include the monitor's own, that knows how
     * wide its topics are as a worker's does ({@link SubscriptionWidth}).
     */
    public static Monitor create(Map<String, Object> settings) {
        MonitorConfig config = new MonitorConfig(settings);
        WorkerSettings worker = WorkerSettings.from(settings, config);
        return new Monitor(config, worker, new TopicDiscovery(noConnectors(), config, Optional.empty(),
                Optional.of(new SubscriptionWidth(() -> Admin.create(MonitorStreams.adminConfigs(config, worker))))));
    }

    /** {@code count} one-byte dead letters in {@code topic}, as Kafka Connect's DLQ writes them for input "orders". */
    public static void produceDeadLetters(LocalKafka kafka, String topic, int count) {
        produceDeadLetters(kafka, topic, count, i -> null);
    }

    /** As {@link #produceDeadLetters(LocalKafka, String, int)}, over the topic's {@code partitions} in turn. */
    public static void produceDeadLetters(LocalKafka kafka, String topic, int count, int partitions) {
        produceDeadLetters(kafka, topic, count, i -> i % partitions);
    }

    private static void produceDeadLetters(LocalKafka kafka, String topic, int count, IntFunction<Integer> partition) {
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(kafka.clientProps(),
                new ByteArraySerializer(), new ByteArraySerializer())) {
            for (int i = 0; i < count; i++) {
                ProducerRecord<byte[], byte[]> record = new ProducerRecord<>(topic, partition.apply(i), null,
                        new byte[] {1});
                record.headers().add("__connect.errors.topic", "orders".getBytes(StandardCharsets.UTF_8));
                producer.send(record);
            }
        }
    }

    public static ConnectClusterState noConnectors() {
        return new ConnectClusterState() {
            @Override
            public Collection<String> connectors() {
                return List.of();
            }

            @Override
            public ConnectorHealth connectorHealth(String connName) {
                throw new IllegalArgumentException("no connector " + connName);
            }
        };
    }
}
