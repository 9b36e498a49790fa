package dev.quarantine.replay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.errors.RetriableException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import dev.quarantine.sandbox.LocalKafka;
import dev.quarantine.sandbox.LocalKafkaExtension;
import dev.quarantine.txn.progress.UnreadableRecordException;

/**
 * The replays' progress read through the one reader of compacted topics, on a real broker: what a record that is not
 * a replay's progress does to a read, and where each read stops when a transaction stays open on the topic.
 */
@ExtendWith(LocalKafkaExtension.class)
class ReplayProgressReaderIT {

    private static final Uuid DLQ_ID = Uuid.fromString("Vh6F2mYbRfaH0u1kQ2cJ0w");

    private final LocalKafka kafka;
    private final String topic = "replay-progress-" + System.nanoTime();

    ReplayProgressReaderIT(LocalKafka kafka) {
        this.kafka = kafka;
        kafka.createTopic(topic, 1, Map.of("cleanup.policy", "compact"));
    }

    @Test
    void refusesARecordThatIsNotAReplaysProgressNamingItsPositionRatherThanAnswerWithoutIt() {
        try (KafkaProducer<byte[], byte[]> writer = producer(topic + "-writer")) {
            commit(writer, "fix-1", progress("fix-1"));
            commit(writer, "fix-1", "format=1\nnext=3\n".getBytes());
        }

        Throwable latest;
        Throwable all;
        try (ReplayProgressReader reader = reader(Duration.ofSeconds(60))) {
            latest = catchThrowable(() -> reader.latest("fix-1"));
            all = catchThrowable(() -> reader.awaitAll(Optional.of(new ReplayProgressReader.ReadBack("orders.dlq",
                    "fix-1", 1_000))));
        }

        assertThat(latest).as("not the older progress of fix-1 taken for its latest")
                .isInstanceOf(UnreadableRecordException.class)
                .hasMessageStartingWith("The record " + topic + "-0@2 cannot be read: not a replay progress record");
        assertThat(all).isInstanceOf(UnreadableRecordException.class).hasMessageContaining(topic + "-0@2");
    }

    /**
     * A record that is not a replay's progress (a stray one, or one of a newer version) under another key than the
     * replay being read leaves that key out and stops nothing else (the review of the one reader, MEDIUM: every
     * replay of the cluster and every view refused while it stayed in the compacted topic).
     */
    @Test
    void aStrayRecordUnderAnotherKeyIsLeftOutAndStopsNoOtherReplay() {
        try (KafkaProducer<byte[], byte[]> writer = producer(topic + "-stray")) {
            commit(writer, "fix-1", progress("fix-1"));
            commit(writer, "stray", "format=1\nnext=3\n".getBytes());
            commit(writer, "fix-2", progress("fix-2"));
        }

        try (ReplayProgressReader reader = reader(Duration.ofSeconds(60))) {
            assertThat(reader.latest("fix-1")).isPresent();
            assertThat(reader.replaysOf("orders.dlq")).extracting(ReplayProgress::replayId)
                    .containsExactly("fix-1", "fix-2");
            assertThat(reader.awaitAll(Optional.of(new ReplayProgressReader.ReadBack("orders.dlq", "fix-2", 1_000))))
                    .containsOnlyKeys("fix-1", "fix-2");
            assertThat(catchThrowable(() -> reader.latest("stray"))).as("the replay whose own record it is")
                    .isInstanceOf(UnreadableRecordException.class);
        }
    }

    @Test
    void aViewAnswersAtOnceBelowAnOpenTransactionWhileAStartingReplayFailsRetriablyNamingThePartitionAndEnd() {
        ReplayProgress first = ReplayProgress.started("fix-1", "orders.dlq", DLQ_ID, Map.of(0, 0L), Map.of(0, 10L),
                Instant.parse("2026-12-01T03:00:00Z"));
        try (KafkaProducer<byte[], byte[]> writer = producer(topic + "-writer");
             KafkaProducer<byte[], byte[]> open = producer(topic + "-open")) {
            commit(writer, "fix-1", ProgressFormat.write(first));
            open.beginTransaction();
            open.send(new ProducerRecord<>(topic, 0, "fix-2".getBytes(), progress("fix-2")));
            open.flush(); // at offset 2, open until aborted below
            commit(writer, "fix-3", progress("fix-3"));

            Optional<ReplayProgress> latest;
            Throwable awaited;
            try (ReplayProgressReader reader = reader(Duration.ofSeconds(3))) {
                latest = reader.latest("fix-1");
                awaited = catchThrowable(() -> reader.awaitAll(Optional.empty()));
            }
            open.abortTransaction();

            assertThat(latest).contains(first);
            assertThat(awaited).as("never answered from the progress below the open transaction")
                    .isInstanceOf(RetriableException.class)
                    .hasMessageContaining(ReplayConfig.PROGRESS_READ_TIMEOUT_MS_CONFIG)
                    .hasMessageContaining("Read " + topic + "-0 up to offset ") // 2 (the open transaction), or less
                    .hasMessageContaining(" of 5 (the high watermark"); // when a loaded broker answered slowly
        }
        try (ReplayProgressReader reader = reader(Duration.ofSeconds(60))) {
            assertThat(reader.awaitAll(Optional.empty())).as("once the transaction ended")
                    .containsOnlyKeys("fix-1", "fix-3");
        }
    }

    private static byte[] progress(String replayId) {
        return ProgressFormat.write(ReplayProgress.started(replayId, "orders.dlq", DLQ_ID, Map.of(0, 0L),
                Map.of(0, 10L), Instant.parse("2026-12-01T03:00:00Z")));
    }

    private ReplayProgressReader reader(Duration timeout) {
        return new ReplayProgressReader(Map.of("bootstrap.servers", kafka.bootstrapServers()), topic, timeout);
    }

    private void commit(KafkaProducer<byte[], byte[]> producer, String key, byte[] value) {
        producer.beginTransaction();
        producer.send(new ProducerRecord<>(topic, 0, key.getBytes(), value));
        producer.commitTransaction();
    }

    private KafkaProducer<byte[], byte[]> producer(String transactionalId) {
        KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers(),
                ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalId,
                ProducerConfig.TRANSACTION_TIMEOUT_CONFIG, 60_000),
                new ByteArraySerializer(), new ByteArraySerializer());
        producer.initTransactions();
        return producer;
    }
}
