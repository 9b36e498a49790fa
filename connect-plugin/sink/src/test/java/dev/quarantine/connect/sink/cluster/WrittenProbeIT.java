package dev.quarantine.connect.sink.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.Future;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.RecordsToDelete;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import dev.quarantine.connect.sink.cluster.WrittenCheck.AtFirst;
import dev.quarantine.connect.sink.cluster.WrittenCheck.Look;
import dev.quarantine.connect.sink.progress.ProgressRecord.Written;
import dev.quarantine.sandbox.Await;
import dev.quarantine.sandbox.LocalKafka;
import dev.quarantine.sandbox.LocalKafkaExtension;
import dev.quarantine.txn.progress.PartitionOffsets;

/**
 * {@link WrittenProbe} on a real broker: what a {@code read_committed} read at a written line's {@code first} and
 * from its {@code end} on finds after committed, aborted and open transactions, retention and a line past the log.
 */
@ExtendWith(LocalKafkaExtension.class)
class WrittenProbeIT {

    private static final Duration TIMEOUT = Duration.ofSeconds(60);

    private final LocalKafka kafka;
    private final Admin admin;
    private final List<AutoCloseable> closing = new ArrayList<>();

    WrittenProbeIT(LocalKafka kafka) {
        this.kafka = kafka;
        this.admin = kafka.admin();
        closing.add(admin);
    }

    @AfterEach
    void close() throws Exception {
        for (AutoCloseable c : closing) {
            c.close();
        }
    }

    @Test
    void tellsACommittedTransactionFromAnAbortedOneAndSeesTheCommitsAfterEach() {
        TopicPartition tp = new TopicPartition("probe-fates", 0);
        kafka.createTopic(tp.topic(), 1, Map.of());
        Written committed = transaction(tp, "probe-fates-a", 3, true);
        Written aborted = transaction(tp, "probe-fates-b", 2, false);
        Written later = transaction(tp, "probe-fates-c", 2, true);

        try (WrittenProbe probe = probe()) {
            assertThat(probe.look(Map.of(tp, committed), Set.of(tp), TIMEOUT))
                    .containsExactly(Map.entry(tp, new Look(AtFirst.VISIBLE, OptionalLong.of(later.first()))));
            assertThat(probe.look(Map.of(tp, aborted), Set.of(tp), TIMEOUT))
                    .containsExactly(Map.entry(tp, new Look(AtFirst.ABORTED, OptionalLong.of(later.first()))));
            assertThat(probe.look(Map.of(tp, later), Set.of(tp), TIMEOUT))
                    .as("nothing visible after the last commit (its marker only)")
                    .containsExactly(Map.entry(tp, new Look(AtFirst.VISIBLE, OptionalLong.empty())));
            assertThat(probe.look(Map.of(tp, committed), Set.of(), TIMEOUT))
                    .as("no end check asked").containsExactly(Map.entry(tp, Look.of(AtFirst.VISIBLE)));
        }
    }

    @Test
    void aTransactionStillOpenHoldsTheLineBackUntilItEnds() {
        TopicPartition tp = new TopicPartition("probe-open", 0);
        kafka.createTopic(tp.topic(), 1, Map.of());
        KafkaProducer<byte[], byte[]> open = producer("probe-open-a");
        open.beginTransaction();
        Written line = send(open, tp, 2);

        try (WrittenProbe probe = probe()) {
            assertThat(probe.look(Map.of(tp, line), Set.of(tp), TIMEOUT)).as("held back at first and from the end")
                    .containsExactly(Map.entry(tp, new Look(AtFirst.HELD_BACK, OptionalLong.empty(), true)));
            open.abortTransaction();
            awaitMarkers(admin, tp);
            assertThat(probe.look(Map.of(tp, line), Set.of(tp), TIMEOUT))
                    .containsExactly(Map.entry(tp, Look.of(AtFirst.ABORTED)));
        }
    }

    /**
     * A review finding: with a transaction open right after a committed line's end (a later transaction of the source
     * partition whose markers were skipped), the look from the end says so instead of "nothing visible".
     */
    @Test
    void aTransactionOpenAfterTheEndHoldsTheLookFromTheEndBack() {
        TopicPartition tp = new TopicPartition("probe-after", 0);
        kafka.createTopic(tp.topic(), 1, Map.of());
        Written committed = transaction(tp, "probe-after-a", 3, true);
        KafkaProducer<byte[], byte[]> open = producer("probe-after-b");
        open.beginTransaction();
        Written later = send(open, tp, 2);

        try (WrittenProbe probe = probe()) {
            assertThat(probe.look(Map.of(tp, committed), Set.of(tp), TIMEOUT)).containsExactly(
                    Map.entry(tp, new Look(AtFirst.VISIBLE, OptionalLong.empty(), true)));
            assertThat(probe.look(Map.of(tp, committed), Set.of(), TIMEOUT)).as("not checked from the end")
                    .containsExactly(Map.entry(tp, Look.of(AtFirst.VISIBLE)));
            open.commitTransaction();
            awaitMarkers(admin, tp);
            assertThat(probe.look(Map.of(tp, committed), Set.of(tp), TIMEOUT)).containsExactly(
                    Map.entry(tp, new Look(AtFirst.VISIBLE, OptionalLong.of(later.first()))));
        }
    }

    @Test
    void aLineBelowTheLogStartIsDeletedAndOnePastTheEndIsMissing() throws Exception {
        TopicPartition deleted = new TopicPartition("probe-ends", 0);
        TopicPartition past = new TopicPartition("probe-ends", 1);
        kafka.createTopic(deleted.topic(), 2, Map.of());
        Written first = transaction(deleted, "probe-ends-a", 3, true);
        transaction(deleted, "probe-ends-b", 3, true);
        admin.deleteRecords(Map.of(deleted, RecordsToDelete.beforeOffset(first.end() + 1))).all().get();

        Map<TopicPartition, Written> lines = Map.of(deleted, first, past, new Written(1_000, 1_010, 0));
        try (WrittenProbe probe = probe()) {
            assertThat(probe.look(lines, Set.of(deleted, past), TIMEOUT)).containsOnly(
                    Map.entry(deleted, new Look(AtFirst.DELETED, OptionalLong.of(first.end() + 1))),
                    Map.entry(past, Look.of(AtFirst.MISSING)));
        }
    }

    @Test
    void looksAtSeveralPartitionsInOneCall() {
        TopicPartition a = new TopicPartition("probe-many", 0);
        TopicPartition b = new TopicPartition("probe-many", 1);
        TopicPartition c = new TopicPartition("probe-many", 2);
        kafka.createTopic(a.topic(), 3, Map.of());
        Map<TopicPartition, Written> lines = new HashMap<>();
        lines.put(a, transaction(a, "probe-many-a", 5, true));
        lines.put(b, transaction(b, "probe-many-b", 5, false));
        lines.put(c, transaction(c, "probe-many-c", 1, true));

        try (WrittenProbe probe = probe()) {
            assertThat(probe.look(lines, Set.of(), TIMEOUT)).containsOnly(
                    Map.entry(a, Look.of(AtFirst.VISIBLE)), Map.entry(b, Look.of(AtFirst.ABORTED)),
                    Map.entry(c, Look.of(AtFirst.VISIBLE)));
        }
    }

    /**
     * Waits until no transaction is open on {@code tp} (its last stable offset is its high watermark): a commit or an
     * abort returns once the coordinator has prepared it, and its markers are written after; until then the probe
     * rightly answers "held back".
     */
    /**
     * Many lines on one partition (a shared dead-letter partition): every line decided in one scan, committed ones
     * visible, aborted ones aborted, past a long committed stretch nobody asked about (skipped, not read).
     */
    @Test
    void decidesManyLinesOfOnePartitionInOneScan() {
        TopicPartition tp = new TopicPartition("probe-shared", 0);
        kafka.createTopic(tp.topic(), 1, Map.of());
        Map<Long, AtFirst> expected = new HashMap<>();
        KafkaProducer<byte[], byte[]> a = producer("probe-shared-a");
        KafkaProducer<byte[], byte[]> filler = producer("probe-shared-filler");
        for (int i = 0; i < 20; i++) {
            boolean commit = i % 3 != 1;
            a.beginTransaction();
            expected.put(send(a, tp, 2).first(), commit ? AtFirst.VISIBLE : AtFirst.ABORTED);
            if (commit) {
                a.commitTransaction();
            } else {
                a.abortTransaction();
            }
            if (i == 10) {
                filler.beginTransaction();
                send(filler, tp, 3_000);
                filler.commitTransaction();
            }
        }
        awaitMarkers(admin, tp);

        try (WrittenProbe probe = probe()) {
            assertThat(probe.lookAll(Map.of(tp, expected.keySet()), TIMEOUT)).containsExactly(Map.entry(tp,
                    expected));
        }
    }

    static void awaitMarkers(Admin admin, TopicPartition tp) {
        Await.until("the markers of the last transaction on " + tp, TIMEOUT, () -> {
            Map<TopicPartition, Long> stable = PartitionOffsets.list(admin, List.of(tp), OffsetSpec.latest(),
                    IsolationLevel.READ_COMMITTED, TIMEOUT);
            Map<TopicPartition, Long> end = PartitionOffsets.list(admin, List.of(tp), OffsetSpec.latest(),
                    IsolationLevel.READ_UNCOMMITTED, TIMEOUT);
            return stable.equals(end);
        });
    }

    private WrittenProbe probe() {
        return probe(kafka, admin);
    }

    /** A probe of {@code kafka}'s cluster, its offsets listed through {@code admin}. */
    static WrittenProbe probe(LocalKafka kafka, Admin admin) {
        Map<String, Object> configs = new HashMap<>();
        kafka.clientProps().forEach((k, v) -> configs.put((String) k, v));
        return new WrittenProbe(configs, admin);
    }

    /** One transaction of {@code count} records to {@code tp}, committed or aborted: the line it writes. */
    private Written transaction(TopicPartition tp, String transactionalId, int count, boolean commit) {
        KafkaProducer<byte[], byte[]> producer = producer(transactionalId);
        producer.beginTransaction();
        Written line = send(producer, tp, count);
        if (commit) {
            producer.commitTransaction();
        } else {
            producer.abortTransaction();
        }
        awaitMarkers(admin, tp);
        return line;
    }

    /** Sends {@code count} records to {@code tp} in the producer's open transaction: the line they make. */
    static Written send(KafkaProducer<byte[], byte[]> producer, TopicPartition tp, int count) {
        List<Future<RecordMetadata>> sent = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            sent.add(producer.send(new ProducerRecord<>(tp.topic(), tp.partition(), null, new byte[] {(byte) i})));
        }
        producer.flush();
        try {
            return new Written(sent.get(0).get().offset(), sent.get(count - 1).get().offset() + 1, 0);
        } catch (Exception e) {
            throw new AssertionError("a send to " + tp + " failed", e);
        }
    }

    private KafkaProducer<byte[], byte[]> producer(String transactionalId) {
        Properties props = kafka.clientProps();
        props.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalId);
        KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(props, new ByteArraySerializer(),
                new ByteArraySerializer());
        closing.add(producer);
        producer.initTransactions();
        return producer;
    }
}
