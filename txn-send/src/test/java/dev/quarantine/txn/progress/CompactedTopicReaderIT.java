package dev.quarantine.txn.progress;

import static dev.quarantine.txn.progress.TestFormats.FORMAT;
import static dev.quarantine.txn.progress.TestFormats.withTombstones;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import dev.quarantine.sandbox.LocalKafka;
import dev.quarantine.sandbox.LocalKafkaExtension;

/** {@link CompactedTopicReader} on the real broker: transactions aborted, committed and left open. */
@ExtendWith(LocalKafkaExtension.class)
class CompactedTopicReaderIT {

    private final LocalKafka kafka;
    private final String topic = "compacted-" + System.nanoTime();
    private final TopicPartition partition = new TopicPartition(topic, 0);
    private final Admin admin;
    private final CompactedTopicReader reader;

    CompactedTopicReaderIT(LocalKafka kafka) {
        this.kafka = kafka;
        kafka.createTopic(topic, 1, Map.of("cleanup.policy", "compact"));
        admin = kafka.admin();
        reader = new CompactedTopicReader(Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers(),
                ConsumerConfig.CLIENT_ID_CONFIG, topic + "-reader"), admin);
    }

    @AfterEach
    void close() {
        reader.close();
        admin.close();
    }

    @Test
    void answersTheLastCommittedRecordPerKeyLeavingOutAbortedRecordsAndDeletedKeys() {
        try (KafkaProducer<String, String> writer = producer(topic + "-writer")) {
            commit(writer, "a", "v=1", "b", "v=1", "c", "v=1");
            writer.beginTransaction();
            writer.send(new ProducerRecord<>(topic, 0, "a", "v=aborted"));
            writer.send(new ProducerRecord<>(topic, 0, "d", "v=aborted"));
            writer.flush();
            writer.abortTransaction();
            commit(writer, "b", null, "c", "v=2");
        }

        assertThat(read(ReadEnd.HIGH_WATERMARK, Duration.ofSeconds(60)))
                .containsExactlyInAnyOrderEntriesOf(Map.of("a", "1", "c", "2"));
    }

    @Test
    void aReadHeldBackByAnotherWritersOpenTransactionFailsNamingThePartitionAndItsEndUntilTheTransactionEnds() {
        try (KafkaProducer<String, String> writer = producer(topic + "-writer");
             KafkaProducer<String, String> hanging = producer(topic + "-hanging")) {
            commit(writer, "a", "v=1");
            hanging.beginTransaction();
            hanging.send(new ProducerRecord<>(topic, 0, "h", "v=open"));
            hanging.flush(); // open at offset 2 (after a's commit marker)
            commit(writer, "a", "v=2");

            ReadHeldBackException held = catchThrowableOfType(() -> read(ReadEnd.HIGH_WATERMARK,
                    Duration.ofSeconds(3)), ReadHeldBackException.class);
            Map<String, String> stable = read(ReadEnd.LAST_STABLE_OFFSET, Duration.ofSeconds(60));
            hanging.abortTransaction();
            Map<String, String> after = read(ReadEnd.HIGH_WATERMARK, Duration.ofSeconds(60));

            assertThat(held).as("never answered from the records below the open transaction").isNotNull()
                    .hasMessageContaining("Read " + partition + " up to offset 2 of 5 (the high watermark");
            assertThat(held.stoppedAt()).isEqualTo(Map.of(partition, 2L));
            assertThat(held.end()).as("a=1, its marker, h, a=2, its marker").isEqualTo(Map.of(partition, 5L));
            assertThat(stable).as("what lies before the open transaction, without waiting")
                    .containsExactlyInAnyOrderEntriesOf(Map.of("a", "1"));
            assertThat(after).as("once the transaction ended").containsExactlyInAnyOrderEntriesOf(Map.of("a", "2"));
        }
    }

    @Test
    void refusesARecordOfAnUnknownFormatNamingItsPosition() {
        try (KafkaProducer<String, String> writer = producer(topic + "-writer")) {
            commit(writer, "a", "v=1", "b", "format=9\nnext=3", "a", "v=2");
        }

        UnreadableRecordException refused = catchThrowableOfType(() -> read(ReadEnd.HIGH_WATERMARK,
                Duration.ofSeconds(60)), UnreadableRecordException.class);

        assertThat(refused).hasMessage("The record " + topic + "-0@1 cannot be read: unknown format")
                .hasMessageNotContaining("next=3");
    }

    @Test
    void givesACommittedTombstoneToItsFormatWithItsPositionAndAnAbortedOneNot() {
        try (KafkaProducer<String, String> writer = producer(topic + "-writer")) {
            commit(writer, "a", "v=1", "b", "v=1");
            writer.beginTransaction();
            writer.send(new ProducerRecord<>(topic, 0, "b", null));
            writer.flush();
            writer.abortTransaction();
            commit(writer, "a", null);
        }
        KeyedFormat<String> resets = withTombstones((key, position) -> Optional.of("reset at " + position));

        Map<String, String> read = reader.read(List.of(partition), ReadEnd.HIGH_WATERMARK, resets,
                Instant.now().plus(Duration.ofSeconds(60)));

        assertThat(read).as("a=1, b=1, marker, aborted b tombstone, marker, a tombstone at 5")
                .containsExactlyInAnyOrderEntriesOf(Map.of("a", "reset at " + topic + "-0@5", "b", "1"));
    }

    private Map<String, String> read(ReadEnd end, Duration timeout) {
        return reader.read(List.of(partition), end, FORMAT, Instant.now().plus(timeout));
    }

    /** Commits key, value pairs (a null value is a tombstone) in one transaction. */
    private void commit(KafkaProducer<String, String> producer, String... keysAndValues) {
        producer.beginTransaction();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            producer.send(new ProducerRecord<>(topic, 0, keysAndValues[i], keysAndValues[i + 1]));
        }
        producer.commitTransaction();
    }

    private KafkaProducer<String, String> producer(String transactionalId) {
        KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers(),
                ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalId,
                ProducerConfig.TRANSACTION_TIMEOUT_CONFIG, 60_000),
                new StringSerializer(), new StringSerializer());
        producer.initTransactions();
        return producer;
    }
}
