package dev.quarantine.connect.sink;

import static dev.quarantine.connect.sink.TestData.committed;
import static dev.quarantine.connect.sink.TestData.records;
import static dev.quarantine.connect.sink.TestData.values;
import static dev.quarantine.sandbox.Utf8.text;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewPartitions;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.quarantine.sandbox.LocalKafka;
import dev.quarantine.sandbox.LocalKafkaExtension;
import dev.quarantine.sandbox.Utf8;

/**
 * The task against a real broker when topics change under it between runs: a source topic deleted and created again
 * with the same name, a target topic that gained partitions.
 */
@ExtendWith(LocalKafkaExtension.class)
class TopicsChangedIT {

    private final LocalKafka kafka;
    @RegisterExtension
    final TaskFixture fixture;
    private final TopicPartition partition;

    TopicsChangedIT(LocalKafka kafka) {
        this.kafka = kafka;
        // the source cluster named (the same broker): a task in process has no consumer group to prove it by
        fixture = new TaskFixture(kafka, "changed", "commit.interval.ms", "0",
                "consumer.override.bootstrap.servers", kafka.bootstrapServers());
        partition = new TopicPartition(fixture.source, 0);
    }

    @Test
    void startsASourceTopicCreatedAgainFromItsBeginningInsteadOfAtTheOldTopicsProgress() throws Exception {
        TransactionalKafkaSinkTask first = copyFromTheOldTopic(new FakeSinkTaskContext(), 10);
        fixture.stop(first);

        fixture.recreate(fixture.source, Map.of());
        FakeSinkTaskContext context = new FakeSinkTaskContext();
        TransactionalKafkaSinkTask second = fixture.start(context);
        second.open(List.of(partition));
        second.put(records(fixture.source, 0, 0, 15)); // the new topic's records, from its first

        assertThat(context.seeks).as("the new topic from its beginning, not at the old topic's 10")
                .containsExactly(Map.entry(partition, 0L));
        assertTheOldTopicsTenThenTheNewTopicsFifteen();
    }

    @Test
    void startsASourceTopicCreatedAgainUnderARunningTaskFromItsBeginningWhenTheConsumerKeptItsPosition()
            throws Exception {
        TransactionalKafkaSinkTask task = seekingTheNewTopicsBeginning(new FakeSinkTaskContext());
        task.put(records(fixture.source, 0, 0, 15)); // delivered again from there

        assertTheOldTopicsTenThenTheNewTopicsFifteen();
    }

    @Test
    void refusesTheOldPositionsBatchDeliveredAgainAfterTheStartOverOfASourceTopicCreatedAgain() throws Exception {
        FakeSinkTaskContext context = new FakeSinkTaskContext();
        TransactionalKafkaSinkTask task = seekingTheNewTopicsBeginning(context);
        context.seeks.clear();

        task.put(records(fixture.source, 0, 10, 15)); // Connect delivers the batch again before the seek acts
        assertThat(context.seeks).as("the batch fetched before the seek refused, sought to the beginning again")
                .containsExactly(Map.entry(partition, 0L));
        task.put(records(fixture.source, 0, 0, 15));

        assertTheOldTopicsTenThenTheNewTopicsFifteen();
    }

    @Test
    void copiesASourceTopicCreatedAgainShorterThanTheOldProgressWhenTheConsumerResetItsPosition() throws Exception {
        FakeSinkTaskContext context = new FakeSinkTaskContext();
        TransactionalKafkaSinkTask task = copyFromTheOldTopic(context, 1_000);
        fixture.recreate(fixture.source, Map.of());

        // the consumer's position 1,000 is out of range of the new topic: auto.offset.reset moves it to 0
        task.put(records(fixture.source, 0, 0, 10));
        assertThat(context.seeks).as("the new topic started over at its beginning").containsEntry(partition, 0L);
        task.put(records(fixture.source, 0, 0, 10)); // delivered again from there

        List<String> copied = values(committed(kafka, fixture.target));
        assertThat(copied).hasSize(1_010);
        assertThat(copied.subList(1_000, 1_010)).as("all 10 of the new topic")
                .containsExactlyElementsOf(IntStream.range(0, 10).mapToObj(i -> "v" + i).toList());
    }

    @Test
    void writesNothingAgainWhenTheTargetTopicWasCreatedAgainWithAnAbortedTransactionWhereTheLastCommitWrote()
            throws Exception {
        TransactionalKafkaSinkTask first = copyFromTheOldTopic(new FakeSinkTaskContext(), 10);
        fixture.stop(first);
        fixture.recreate(fixture.target, Map.of());
        // as a task still running through the re-creation leaves it: its open transaction's sends went to the new
        // topic, then it was stopped (aborted), at the offsets where the old topic holds the last commit's records
        Properties props = kafka.clientProps();
        props.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, fixture.source + "-other");
        try (KafkaProducer<byte[], byte[]> other = new KafkaProducer<>(props, new ByteArraySerializer(),
                new ByteArraySerializer())) {
            other.initTransactions();
            other.beginTransaction();
            for (int i = 0; i < 3; i++) {
                other.send(new ProducerRecord<>(fixture.target, 0, null, Utf8.bytes("aborted-" + i))).get();
            }
            other.abortTransaction();
        }

        TransactionalKafkaSinkTask second = fixture.start(new FakeSinkTaskContext());
        second.open(List.of(partition));
        second.put(records(fixture.source, 0, 10, 15));

        assertThat(values(committed(kafka, fixture.target)))
                .as("the new topic holds what came after only: the last commit's records went with the old topic,"
                        + " they were not lost to the abort read at their offsets in the new one")
                .containsExactlyElementsOf(IntStream.range(10, 15).mapToObj(i -> "v" + i).toList());
    }

    @Test
    void keepsEveryKeyInItsTargetPartitionAcrossARestartAfterTheTargetTopicGainedPartitions() throws Exception {
        fixture.createTopics(2, Map.of()); // the source has 4 partitions: those of 2 and 3 are mapped by key hash
        List<TopicPartition> partitions = IntStream.range(0, 4).mapToObj(p -> new TopicPartition(fixture.source, p))
                .toList();
        TransactionalKafkaSinkTask first = fixture.start(new FakeSinkTaskContext());
        first.open(partitions);
        first.put(Stream.of(2, 3).flatMap(p -> records(fixture.source, p, 0, 10).stream()).toList());
        fixture.stop(first);
        Map<String, Integer> before = targetPartitionsByKey();
        try (Admin admin = kafka.admin()) {
            admin.createPartitions(Map.of(fixture.target, NewPartitions.increaseTo(4))).all()
                    .get(30, TimeUnit.SECONDS);
        }

        TransactionalKafkaSinkTask second = fixture.start(new FakeSinkTaskContext());
        second.open(partitions);
        second.put(Stream.of(2, 3).flatMap(p -> records(fixture.source, p, 10, 20).stream()
                .map(r -> r.newRecord(r.topic(), r.kafkaPartition(), r.keySchema(), Utf8.bytes("k"
                        + (r.kafkaOffset() - 10)), r.valueSchema(), r.value(), r.timestamp()))).toList());

        List<ConsumerRecord<byte[], byte[]>> all = committed(kafka, fixture.target);
        assertThat(all).hasSize(40);
        Map<String, Integer> after = targetPartitionsByKey();
        assertThat(before.values()).as("mapped by hash onto the 2 partitions the target had").allMatch(p -> p < 2)
                .hasSize(10);
        assertThat(after).as("each key still in the partition it went to before the target grew")
                .isEqualTo(before);
    }

    /**
     * A task started over {@code context} on the source topic as first created (one partition), which copies its
     * records 0..{@code records}-1.
     */
    private TransactionalKafkaSinkTask copyFromTheOldTopic(FakeSinkTaskContext context, long records) {
        fixture.createTopics();
        kafka.createTopic(fixture.source, 1, Map.of());
        TransactionalKafkaSinkTask task = fixture.start(context);
        task.open(List.of(partition));
        task.put(records(fixture.source, 0, 0, records));
        return task;
    }

    /**
     * A task that copied the old topic's 10 records, the topic then created again under it, and given the batch of
     * the position its consumer kept (the new topic's 10..14): checks that it sought to the new topic's beginning.
     */
    private TransactionalKafkaSinkTask seekingTheNewTopicsBeginning(FakeSinkTaskContext context) throws Exception {
        TransactionalKafkaSinkTask task = copyFromTheOldTopic(context, 10);
        fixture.recreate(fixture.source, Map.of());
        task.put(records(fixture.source, 0, 10, 15)); // the new topic's 10..14: the consumer kept its position
        assertThat(context.seeks).as("sought to the new topic's beginning instead of writing from 10")
                .containsExactly(Map.entry(partition, 0L));
        return task;
    }

    /** The target holds the old topic's 10 records, then all 15 of the topic created again under its name. */
    private void assertTheOldTopicsTenThenTheNewTopicsFifteen() {
        assertThat(values(committed(kafka, fixture.target))).as("the old topic's 10, then all 15 of the new one")
                .containsExactlyElementsOf(Stream.concat(IntStream.range(0, 10).boxed(), IntStream.range(0, 15).boxed())
                        .map(i -> "v" + i).toList());
    }

    /** Each key's target partition; fails when one key is in two partitions. */
    private Map<String, Integer> targetPartitionsByKey() {
        Map<String, Integer> byKey = new HashMap<>();
        for (ConsumerRecord<byte[], byte[]> record : committed(kafka, fixture.target)) {
            Integer earlier = byKey.put(text(record.key()), record.partition());
            assertThat(earlier).as("key %s in one partition", text(record.key())).isIn(null, record.partition());
        }
        return byKey;
    }
}
