package dev.quarantine.connect.sink;

import static dev.quarantine.connect.sink.TestData.committed;
import static dev.quarantine.connect.sink.TestData.header;
import static dev.quarantine.connect.sink.TestData.sinkRecord;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.sink.SinkRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.quarantine.sandbox.LocalKafka;
import dev.quarantine.sandbox.LocalKafkaExtension;
import dev.quarantine.txn.DeadLetterHeaders;

/**
 * A poison the broker rejects (the up-front checks switched off), in the shape of the sink benchmark: several
 * partitions, many records a transaction, the rejection arriving after the progress record was added to the
 * transaction but before it was sent. The producer then fails the progress record with the rejection's error: it is
 * the poison's, not the progress record's own.
 */
@ExtendWith(LocalKafkaExtension.class)
class BrokerRejectedPoisonIT {

    private static final int PARTITIONS = 4;
    private static final int RECORDS = 40;
    private static final long TWO_DAYS_AGO_MS = Duration.ofDays(2).toMillis();

    private final LocalKafka kafka;
    @RegisterExtension
    final TaskFixture fixture;
    private final String target;

    BrokerRejectedPoisonIT(LocalKafka kafka) {
        this.kafka = kafka;
        fixture = new TaskFixture(kafka, "rejected", "commit.interval.ms", "0");
        fixture.createTopics();
        target = fixture.target + ".unchecked";
        kafka.createTopic(target, PARTITIONS,
                Map.of("message.timestamp.before.max.ms", String.valueOf(Duration.ofHours(1).toMillis())));
    }

    /*
     * How the order is pinned: each data record (1 KB) fills a batch of its own (batch.size 512), ready at once; the
     * poison is the first of its transaction, so it is sent first, and one request at a time per connection holds the
     * rest back until its rejection arrives. The progress record (smaller than a batch) lingers until the commit
     * flushes it, and is still unsent when the rejection puts the producer into its abortable error state: the
     * producer fails it, and the records behind the poison, with the rejection's error.
     */
    @Test
    void deadLettersAPoisonTheBrokerRejectsBeforeTheProgressRecordIsSent() {
        TransactionalKafkaSinkTask task = fixture.start(new FakeSinkTaskContext(),
                "target.topic.format", "copy.${topic}.unchecked",
                "target.producer.txn.send.topic.checks.enable", "false",
                "target.producer.max.in.flight.requests.per.connection", "1",
                "target.producer.batch.size", "512",
                "target.producer.linger.ms", "20000");
        List<TopicPartition> partitions = IntStream.range(0, PARTITIONS)
                .mapToObj(p -> new TopicPartition(fixture.source, p)).toList();
        task.open(partitions);
        List<SinkRecord> batch = new ArrayList<>();
        for (int p = 0; p < PARTITIONS; p++) {
            for (int offset = 0; offset < RECORDS; offset++) {
                long timestamp = System.currentTimeMillis() - (offset == 0 ? TWO_DAYS_AGO_MS : 0);
                batch.add(sinkRecord(fixture.source, p, offset, "k" + offset, new byte[1000], timestamp));
            }
        }

        task.put(batch);

        assertThat(committed(kafka, target)).as("every record but the poisons").hasSize(PARTITIONS * (RECORDS - 1));
        assertThat(committed(kafka, fixture.dlq)).hasSize(PARTITIONS).allSatisfy(letter -> {
            assertThat(header(letter, DeadLetterHeaders.CONNECT_OFFSET)).isEqualTo("0");
            assertThat(header(letter, DeadLetterHeaders.CONNECT_EXCEPTION))
                    .isEqualTo("org.apache.kafka.common.errors.InvalidTimestampException");
        });
        assertThat(task.preCommit(Map.of())).hasSize(PARTITIONS)
                .allSatisfy((partition, offset) -> assertThat(offset.offset()).isEqualTo(RECORDS));
    }
}
