package dev.quarantine.connect.sink.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import dev.quarantine.connect.sink.cluster.WrittenCheck.AtFirst;
import dev.quarantine.connect.sink.cluster.WrittenCheck.Look;
import dev.quarantine.connect.sink.progress.ProgressRecord.Written;
import dev.quarantine.sandbox.Await;
import dev.quarantine.sandbox.LocalKafka;

/**
 * Review finding MEDIUM-9 on a real broker whose log cleaner runs often: a committed transaction on a compacted
 * target topic whose first record a later record of its key superseded (within the transaction) is removed by the
 * cleaner; the probe must not take the record missing at {@code first} for an aborted transaction (rule V would
 * write the whole transaction again: duplicates, and old values over newer ones).
 */
class WrittenProbeCompactedIT {

    private static final Duration TIMEOUT = Duration.ofSeconds(60);

    private static LocalKafka kafka;
    private static Admin admin;

    @BeforeAll
    static void start() {
        kafka = LocalKafka.create(Map.of("log.cleaner.backoff.ms", "100")).start();
        admin = kafka.admin();
    }

    @AfterAll
    static void stop() {
        if (admin != null) {
            admin.close();
        }
        if (kafka != null) {
            kafka.close();
        }
    }

    @Test
    void aCommittedFirstRecordTheCleanerRemovedIsNotTakenForAnAbortedOne() throws Exception {
        TopicPartition tp = new TopicPartition("probe-compacted", 0);
        kafka.createTopic(tp.topic(), 1, Map.of(TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_COMPACT,
                TopicConfig.MIN_CLEANABLE_DIRTY_RATIO_CONFIG, "0.01", TopicConfig.MIN_COMPACTION_LAG_MS_CONFIG, "0"));
        Written committed;
        Properties props = kafka.clientProps();
        props.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, "probe-compacted-a");
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(props, new ByteArraySerializer(),
                new ByteArraySerializer())) {
            producer.initTransactions();
            producer.beginTransaction();
            long first = send(producer, tp, "k1");
            send(producer, tp, "k2");
            long last = send(producer, tp, "k1"); // supersedes the transaction's first record
            producer.commitTransaction();
            committed = new Written(first, last + 1, 0);
            WrittenProbeIT.awaitMarkers(admin, tp);
            try (WrittenProbe probe = WrittenProbeIT.probe(kafka, admin)) {
                assertThat(probe.look(Map.of(tp, committed), Set.of(), TIMEOUT))
                        .as("before the cleaner ran").containsExactly(Map.entry(tp, Look.of(AtFirst.VISIBLE)));
            }
            // segments rolled after 100 ms: later records close the one that holds the transaction, which the cleaner
            // then cleans
            admin.incrementalAlterConfigs(Map.of(new ConfigResource(ConfigResource.Type.TOPIC, tp.topic()),
                    List.of(new AlterConfigOp(new ConfigEntry(TopicConfig.SEGMENT_MS_CONFIG, "100"),
                            AlterConfigOp.OpType.SET)))).all().get(30, TimeUnit.SECONDS);
            Await.until("the cleaner to remove " + tp + "@" + first, TIMEOUT, () -> {
                producer.beginTransaction();
                send(producer, tp, "k9");
                producer.commitTransaction();
                return firstInLog(tp, first) > first;
            });
        }

        try (WrittenProbe probe = WrittenProbeIT.probe(kafka, admin)) {
            assertThat(probe.lookAll(Map.of(tp, List.of(committed.first())), TIMEOUT))
                    .containsExactly(Map.entry(tp, Map.of(committed.first(), AtFirst.COMPACTED)));
            assertThat(probe.look(Map.of(tp, committed), Set.of(), TIMEOUT))
                    .containsExactly(Map.entry(tp, Look.of(AtFirst.COMPACTED)));
        }
    }

    private static long send(KafkaProducer<byte[], byte[]> producer, TopicPartition tp, String key) {
        try {
            return producer.send(new ProducerRecord<>(tp.topic(), tp.partition(),
                    key.getBytes(StandardCharsets.UTF_8), new byte[] {1})).get(30, TimeUnit.SECONDS).offset();
        } catch (Exception e) {
            throw new IllegalStateException("could not send to " + tp, e);
        }
    }

    /** The offset of the first record in the log at or after {@code from}, read_uncommitted. */
    private static long firstInLog(TopicPartition tp, long from) {
        Properties props = kafka.clientProps();
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_uncommitted");
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(props, new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            consumer.assign(List.of(tp));
            consumer.seek(tp, from);
            List<ConsumerRecord<byte[], byte[]>> seen = new ArrayList<>();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (seen.isEmpty() && System.nanoTime() < deadline) {
                consumer.poll(Duration.ofMillis(200)).forEach(seen::add);
            }
            return seen.isEmpty() ? -1 : seen.get(0).offset();
        }
    }
}
