package dev.quarantine.connect.sink.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import dev.quarantine.connect.sink.TwoBrokers;
import dev.quarantine.connect.sink.cluster.WrittenCheck.AtFirst;
import dev.quarantine.connect.sink.cluster.WrittenCheck.Look;
import dev.quarantine.connect.sink.progress.ProgressRecord.Written;
import dev.quarantine.sandbox.LocalKafka;
import dev.quarantine.sandbox.TopicReader;

/**
 * The premise of rule V (docs/design/sink-ownership.md 2.7.1), staged deterministically on two brokers: Kafka 4.4's
 * coordinator skips the markers of a committed transaction on a partition that has no leader when they are sent, and
 * reports the transaction complete; the records stay open there, the id's next transaction on that partition joins
 * the open range, and its abort aborts the committed records with it. {@link WrittenProbe} sees each step: held
 * back while open, aborted after. The coordinator is on node 1; the partition on node 2, killed between the flush and
 * the commit.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SkippedMarkersIT {

    private static final Duration TIMEOUT = Duration.ofSeconds(60);

    private LocalKafka first;
    private LocalKafka second;
    private Admin admin;
    private final List<AutoCloseable> closing = new ArrayList<>();

    @BeforeAll
    void start() throws Exception {
        first = LocalKafka.create(Map.of("broker.session.timeout.ms", "3000")).start();
        closing.add(first);
        // the transaction state topic is created on the only broker there is, so the coordinator stays on node 1
        producer("skipped-warm-up").close();
        second = first.joiningBroker(Map.of("broker.heartbeat.interval.ms", "500")).start();
        closing.add(0, second);
        admin = first.admin();
        closing.add(0, admin);
    }

    @AfterAll
    void stop() throws Exception {
        for (AutoCloseable c : closing) {
            c.close();
        }
    }

    @Test
    void aCommitWhoseMarkersWereSkippedOnALeaderlessPartitionIsLostToTheIdsNextAbortThere() throws Exception {
        TopicPartition target = new TopicPartition("skipped-target", 0);
        admin.createTopics(List.of(new NewTopic(target.topic(), Map.of(0, List.of(second.nodeId())))))
                .all().get(30, TimeUnit.SECONDS);
        awaitLeader(target);

        KafkaProducer<byte[], byte[]> c = producer("skipped-c");
        c.beginTransaction();
        Written line = WrittenProbeIT.send(c, target, 3);
        second.kill();
        TwoBrokers.awaitFenced(admin, second.nodeId(), TIMEOUT);
        c.commitTransaction(); // its markers for the leaderless partition are skipped; the coordinator completes it
        c.close(Duration.ZERO);
        second.restart();
        awaitLeader(target);

        try (WrittenProbe probe = probe()) {
            assertThat(probe.look(Map.of(target, line), Set.of(), TIMEOUT))
                    .as("the committed transaction is still open on the partition")
                    .containsExactly(Map.entry(target, Look.of(AtFirst.HELD_BACK)));

            KafkaProducer<byte[], byte[]> next = producer("skipped-c");
            next.beginTransaction();
            WrittenProbeIT.send(next, target, 1);
            next.abortTransaction();
            next.close();
            WrittenProbeIT.awaitMarkers(admin, target);

            assertThat(probe.look(Map.of(target, line), Set.of(), TIMEOUT))
                    .as("the id's next abort on the partition aborted the committed records with it")
                    .containsExactly(Map.entry(target, Look.of(AtFirst.ABORTED)));
        }
        assertThat(TopicReader.readCommitted(first, target.topic(), TIMEOUT)).as("the committed records, lost")
                .isEmpty();
    }

    private void awaitLeader(TopicPartition partition) {
        TwoBrokers.awaitLeader(admin, partition, second.nodeId(), TIMEOUT);
    }

    private WrittenProbe probe() {
        return WrittenProbeIT.probe(first, admin);
    }

    private KafkaProducer<byte[], byte[]> producer(String transactionalId) {
        Properties props = first.clientProps();
        props.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalId);
        KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(props, new ByteArraySerializer(),
                new ByteArraySerializer());
        producer.initTransactions();
        return producer;
    }
}
