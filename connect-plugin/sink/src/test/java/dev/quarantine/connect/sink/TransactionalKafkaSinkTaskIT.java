package dev.quarantine.connect.sink;

import static dev.quarantine.connect.sink.TestData.committed;
import static dev.quarantine.connect.sink.TestData.header;
import static dev.quarantine.connect.sink.TestData.records;
import static dev.quarantine.connect.sink.TestData.sinkRecord;
import static dev.quarantine.connect.sink.TestData.values;
import static dev.quarantine.sandbox.Utf8.bytes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.connect.errors.RetriableException;
import org.apache.kafka.connect.sink.SinkRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.quarantine.sandbox.LocalKafka;
import dev.quarantine.sandbox.LocalKafkaExtension;
import dev.quarantine.sandbox.Utf8;
import dev.quarantine.txn.DeadLetterHeaders;

/** The task against a real broker, without a worker: transactions, progress, fencing, broker-side rejections. */
@ExtendWith(LocalKafkaExtension.class)
class TransactionalKafkaSinkTaskIT {

    private final LocalKafka kafka;
    @RegisterExtension
    final TaskFixture fixture;
    private final String source;
    private final TopicPartition partition;

    TransactionalKafkaSinkTaskIT(LocalKafka kafka) {
        this.kafka = kafka;
        // these tests are about what one put commits: SpanningTransactionsIT covers the default interval
        fixture = new TaskFixture(kafka, "task", "commit.interval.ms", "0");
        fixture.createTopics();
        source = fixture.source;
        partition = new TopicPartition(source, 0);
    }

    @Test
    void copiesRecordsWithTheirKeysHeadersAndTimestampsAndResumesFromCommittedProgress() {
        TransactionalKafkaSinkTask first = fixture.start(new FakeSinkTaskContext());
        first.open(List.of(partition));
        List<SinkRecord> batch = records(source, 0, 0, 10);
        batch.add(sinkRecord(source, 0, 10, null, null, 42L));
        first.put(batch);
        assertThat(first.preCommit(Map.of())).containsEntry(partition,
                new org.apache.kafka.clients.consumer.OffsetAndMetadata(11));

        FakeSinkTaskContext context = new FakeSinkTaskContext();
        TransactionalKafkaSinkTask second = fixture.start(context);
        second.open(List.of(partition));
        second.put(List.of()); // open makes no round trip: the put after the worker's next poll opens it

        assertThat(context.seeks).containsExactly(Map.entry(partition, 11L));
        var copied = committed(kafka, fixture.target);
        assertThat(values(copied)).hasSize(11).startsWith("v0", "v1").contains("v9");
        assertThat(copied.get(10).key()).as("null key").isNull();
        assertThat(copied.get(10).value()).as("tombstone").isNull();
        assertThat(copied.get(10).timestamp()).isEqualTo(42L);
        assertThat(header(copied.get(3), "id")).isEqualTo("3");
        assertThat(Utf8.text(copied.get(3).key())).isEqualTo("k3");
    }

    @Test
    void tellsACommitStillBeingCompletedFromNoProgressWhenAPartitionMovesRightAfterACommit() {
        FakeSinkTaskContext fresh = new FakeSinkTaskContext();
        TransactionalKafkaSinkTask owner = fixture.start(fresh);
        owner.open(List.of(partition));
        owner.put(List.of());
        assertThat(fresh.seeks).as("a partition never written has no progress: the worker's offsets apply").isEmpty();
        assertThat(owner.preCommit(Map.of())).isEmpty();

        long next = 0;
        for (int round = 0; round < 25; round++) {
            owner.put(records(source, 0, next, next + 4));
            next += 4;
            // the owner "crashes" right after its commit: the next owner opens at once, without a close
            FakeSinkTaskContext context = new FakeSinkTaskContext();
            owner = fixture.start(context);
            owner.open(List.of(partition));
            owner.put(List.of());
            assertThat(context.seeks).as("round %d", round).containsExactly(Map.entry(partition, next));
        }
        assertThat(committed(kafka, fixture.target)).hasSize((int) next);
    }

    @Test
    void zombieInstanceCannotCommitForAPartitionItLost() {
        TransactionalKafkaSinkTask zombie = fixture.start(new FakeSinkTaskContext());
        zombie.open(List.of(partition));
        zombie.put(records(source, 0, 0, 10));

        FakeSinkTaskContext context = new FakeSinkTaskContext();
        // the partition moved to another task (ids are per task: another instance of task 0 is SinkTaskFaultsIT's)
        TransactionalKafkaSinkTask owner = fixture.start(context, "quarantine.task.id", "1");
        owner.open(List.of(partition));
        owner.put(List.of());
        zombie.put(records(source, 0, 10, 20));
        owner.put(records(source, 0, context.seeks.get(partition), 20));
        zombie.put(records(source, 0, 20, 30));

        assertThat(values(committed(kafka, fixture.target)))
                .containsExactlyElementsOf(IntStream.range(0, 20).mapToObj(i -> "v" + i).toList());
        assertThat(zombie.preCommit(Map.of())).as("the zombie reports no progress for the partition").isEmpty();
        assertThat(owner.preCommit(Map.of()).get(partition).offset()).isEqualTo(20);
    }

    @Test
    void deadLettersPoisonInTheSameTransactionWithConnectHeaders() {
        kafka.createTopic(fixture.target + ".small", 1, Map.of("max.message.bytes", "2000"));
        FakeSinkTaskContext context = new FakeSinkTaskContext();
        TransactionalKafkaSinkTask task = fixture.start(context, "target.topic.format", "copy.${topic}.small");
        task.open(List.of(partition));
        List<SinkRecord> batch = records(source, 0, 0, 5);
        batch.set(2, sinkRecord(source, 0, 2, "k2", new byte[5000], 1L));
        task.put(batch);

        assertThat(values(committed(kafka, fixture.target + ".small"))).containsExactly("v0", "v1", "v3", "v4");
        var letters = committed(kafka, fixture.dlq);
        assertThat(letters).hasSize(1);
        assertThat(letters.get(0).value()).hasSize(5000);
        assertThat(header(letters.get(0), DeadLetterHeaders.CONNECT_TOPIC)).isEqualTo(source);
        assertThat(header(letters.get(0), DeadLetterHeaders.CONNECT_OFFSET)).isEqualTo("2");
        assertThat(header(letters.get(0), DeadLetterHeaders.CONNECT_EXCEPTION))
                .isEqualTo("org.apache.kafka.common.errors.RecordTooLargeException");
        assertThat(header(letters.get(0), DeadLetterHeaders.CONNECT_CONNECTOR_NAME)).isEqualTo("task-it");
        assertThat(header(letters.get(0), "id")).isEqualTo("2");
        assertThat(context.metrics.value("records-written-total")).isEqualTo(4.0);
        assertThat(context.metrics.value("records-dead-lettered-total", "error-class", "RecordTooLargeException"))
                .isEqualTo(1.0);
        assertThat(context.metrics.value("transactions-committed-total")).isEqualTo(1.0);
    }

    @Test
    void deadLettersKeepTheTimestampOfTheRecordsThatFailed() {
        kafka.createTopic(fixture.target + ".small", 1, Map.of("max.message.bytes", "2000"));
        TransactionalKafkaSinkTask task = fixture.start(new FakeSinkTaskContext(),
                "target.topic.format", "copy.${topic}.small");
        task.open(List.of(partition));
        long twoDaysAgo = System.currentTimeMillis() - Duration.ofDays(2).toMillis();
        task.put(IntStream.range(0, 100).mapToObj(i -> sinkRecord(source, 0, i, "k" + i, new byte[5000],
                twoDaysAgo + i)).toList());

        var letters = committed(kafka, fixture.dlq);
        assertThat(letters).hasSize(100).allSatisfy(letter -> {
            long offset = Long.parseLong(header(letter, DeadLetterHeaders.CONNECT_OFFSET));
            assertThat(letter.timestamp()).as("dead letter of offset %d", offset).isEqualTo(twoDaysAgo + offset);
        });
    }

    @Test
    void deadLettersARecordTooOldForTargetAndDeadLetterTopicStampedNowInsteadOfFailing() throws Exception {
        String oneHour = String.valueOf(Duration.ofHours(1).toMillis());
        kafka.createTopic(fixture.target + ".strict", 1, Map.of("message.timestamp.before.max.ms", oneHour));
        try (Admin admin = kafka.admin()) {
            admin.incrementalAlterConfigs(Map.of(new ConfigResource(ConfigResource.Type.TOPIC, fixture.dlq),
                    List.of(new AlterConfigOp(new ConfigEntry("message.timestamp.before.max.ms", oneHour),
                            AlterConfigOp.OpType.SET)))).all().get(30, TimeUnit.SECONDS);
        }
        TransactionalKafkaSinkTask task = fixture.start(new FakeSinkTaskContext(),
                "target.topic.format", "copy.${topic}.strict");
        task.open(List.of(partition));
        long twoDaysAgo = System.currentTimeMillis() - Duration.ofDays(2).toMillis();
        List<SinkRecord> batch = records(source, 0, 0, 3);
        batch.set(1, sinkRecord(source, 0, 1, "k1", bytes("v1"), twoDaysAgo));
        task.put(batch);

        assertThat(values(committed(kafka, fixture.target + ".strict"))).containsExactly("v0", "v2");
        assertThat(committed(kafka, fixture.dlq)).singleElement().satisfies(letter -> {
            assertThat(header(letter, DeadLetterHeaders.CONNECT_EXCEPTION))
                    .isEqualTo("org.apache.kafka.common.errors.InvalidTimestampException");
            assertThat(letter.timestamp()).as("stamped by the producer, within the topic's hour")
                    .isGreaterThan(twoDaysAgo + Duration.ofDays(1).toMillis());
        });
    }

    @Test
    void deadLettersARecordTheBrokerRejectsWithTheUpFrontChecksSwitchedOff() {
        String oneHour = String.valueOf(Duration.ofHours(1).toMillis());
        kafka.createTopic(fixture.target + ".unchecked", 1, Map.of("message.timestamp.before.max.ms", oneHour));
        TransactionalKafkaSinkTask task = fixture.start(new FakeSinkTaskContext(),
                "target.topic.format", "copy.${topic}.unchecked",
                "target.producer.txn.send.topic.checks.enable", "false");
        task.open(List.of(partition));
        List<SinkRecord> batch = records(source, 0, 0, 3);
        batch.set(2, sinkRecord(source, 0, 2, "k2", bytes("v2"), System.currentTimeMillis()
                - Duration.ofDays(2).toMillis())); // the last of the batch, right before the progress record
        task.put(batch);

        assertThat(values(committed(kafka, fixture.target + ".unchecked"))).containsExactly("v0", "v1");
        assertThat(committed(kafka, fixture.dlq)).singleElement().satisfies(letter -> {
            assertThat(header(letter, DeadLetterHeaders.CONNECT_OFFSET)).isEqualTo("2");
            assertThat(header(letter, DeadLetterHeaders.CONNECT_EXCEPTION))
                    .isEqualTo("org.apache.kafka.common.errors.InvalidTimestampException");
        });
    }

    @Test
    void deadLettersARecordTheBrokerRejectsAfterTheUpFrontChecksPassed() throws Exception {
        FakeSinkTaskContext context = new FakeSinkTaskContext();
        TransactionalKafkaSinkTask task = fixture.start(context);
        task.open(List.of(partition));
        task.put(records(source, 0, 0, 2)); // the producer caches the target topic's config: not compacted
        try (Admin admin = kafka.admin()) {
            admin.incrementalAlterConfigs(Map.of(new ConfigResource(ConfigResource.Type.TOPIC, fixture.target),
                    List.of(new AlterConfigOp(new ConfigEntry("cleanup.policy", "compact"), AlterConfigOp.OpType.SET))))
                    .all().get(30, TimeUnit.SECONDS);
        }
        List<SinkRecord> batch = records(source, 0, 2, 6);
        batch.set(1, sinkRecord(source, 0, 3, null, bytes("v3"), System.currentTimeMillis()));
        task.put(batch);

        assertThat(values(committed(kafka, fixture.target))).containsExactly("v0", "v1", "v2", "v4", "v5");
        var letters = committed(kafka, fixture.dlq);
        assertThat(letters).singleElement().satisfies(letter -> {
            assertThat(header(letter, DeadLetterHeaders.CONNECT_OFFSET)).isEqualTo("3");
            assertThat(header(letter, DeadLetterHeaders.CONNECT_EXCEPTION))
                    .isEqualTo("org.apache.kafka.common.InvalidRecordException");
        });
        assertThat((Double) context.metrics.value("transactions-aborted-total")).isGreaterThanOrEqualTo(1.0);
    }

    @Test
    void failsOnTheFirstPoisonRecordNamingItWhenToleranceIsNone() {
        kafka.createTopic(fixture.target + ".small", 1, Map.of("max.message.bytes", "2000"));
        TransactionalKafkaSinkTask task = fixture.start(new FakeSinkTaskContext(), "send.errors.tolerance", "none",
                "dlq.topic.name", "", "target.topic.format", "copy.${topic}.small");
        task.open(List.of(partition));
        List<SinkRecord> batch = records(source, 0, 0, 5);
        batch.set(3, sinkRecord(source, 0, 3, "k3", new byte[5000], 1L));

        assertThatThrownBy(() -> task.put(batch))
                .hasMessageContaining(source + "-0@3")
                .hasMessageContaining("RecordTooLargeException")
                .hasMessageContaining("send.errors.tolerance");
        assertThat(committed(kafka, fixture.target + ".small")).as("nothing of the failed batch commits").isEmpty();
    }

    @Test
    void keepsItsProgressWhenTheDeadLetterTopicIsDeletedAndCreatedAgain() throws Exception {
        String name = source + "-connector";
        kafka.createTopic(name + ".progress.internal", 2, Map.of("cleanup.policy", "compact"));
        String[] defaultProgressTopic = {"name", name, "progress.topic.name", ""};
        TransactionalKafkaSinkTask first = fixture.start(new FakeSinkTaskContext(), defaultProgressTopic);
        first.open(List.of(partition));
        first.put(records(source, 0, 0, 10));
        first.stop();

        fixture.recreate(fixture.dlq, Map.of());
        FakeSinkTaskContext context = new FakeSinkTaskContext();
        TransactionalKafkaSinkTask second = fixture.start(context, defaultProgressTopic);
        second.open(List.of(partition));
        second.put(List.of());

        assertThat(context.seeks).as("purging the dead-letter topic must not lose the progress")
                .containsExactly(Map.entry(partition, 10L));
    }

    @Test
    void refusesToWriteAPartitionWhoseProgressCannotBeRead() {
        TransactionalKafkaSinkTask first = fixture.start(new FakeSinkTaskContext());
        first.open(List.of(partition));
        first.put(records(source, 0, 0, 10));
        first.stop();

        // the new owner's producer initializes, but its progress read cannot finish in 1 ms; the open does not throw
        // that transient failure (Connect would stop the task for good): the partition is opened later
        FakeSinkTaskContext context = new FakeSinkTaskContext();
        TransactionalKafkaSinkTask second = fixture.startAssigned(context, partition, "progress.read.timeout.ms", "1");
        assertThatThrownBy(() -> second.put(records(source, 0, 0, 20))).isInstanceOf(RetriableException.class)
                .as("unknown progress is never taken for no progress")
                .hasMessageContaining(source + "-0").hasMessageContaining("progress.read.timeout.ms");
        assertThat(context.seeks).isEmpty();

        assertThat(values(committed(kafka, fixture.target))).as("the redelivered batch is not written again")
                .containsExactlyElementsOf(IntStream.range(0, 10).mapToObj(i -> "v" + i).toList());
    }

    @Test
    void failsNamingTheProgressTopicWhenItWasDeletedInsteadOfStartingOver() throws Exception {
        TransactionalKafkaSinkTask first = fixture.start(new FakeSinkTaskContext());
        first.open(List.of(partition));
        first.put(records(source, 0, 0, 10));
        first.stop();
        try (Admin admin = kafka.admin()) {
            admin.deleteTopics(List.of(fixture.progress)).all().get(30, TimeUnit.SECONDS);
        }

        // found at start now (the task checks the topic's partitions there), before any partition is assigned
        assertThatThrownBy(() -> fixture.start(new FakeSinkTaskContext()))
                .hasMessageContaining("The progress topic " + fixture.progress + " does not exist");
    }

    @Test
    void failsAtStartNamingTheSettingAndTheCommandWhenTheProgressTopicHasOnePartition() {
        String oneForAll = source + ".progress.one";
        kafka.createTopic(oneForAll, 1, Map.of("cleanup.policy", "compact"));

        assertThatThrownBy(() -> fixture.start(new FakeSinkTaskContext(), "progress.topic.name", oneForAll))
                .as("the claims need partition 1: the task fails fast, not at its first read of the claims")
                .hasMessageContaining("progress.topic.name")
                .hasMessageContaining("kafka-topics.sh --alter --topic " + oneForAll + " --partitions 2");
    }

    @Test
    void twoPrefixesWhoseIdsOnceJoinedAlikeNeitherFenceNorReadEachOthersProgress() {
        // prefix P with topic q.R and prefix P.q with topic R were both P.q.R-0, as transactional id and progress key
        String q = "q." + source;
        TopicPartition first = new TopicPartition(q, 0);
        TopicPartition second = new TopicPartition(source, 0);
        kafka.createTopic("copy." + q, 1, Map.of());
        FakeSinkTaskContext firstContext = new FakeSinkTaskContext();
        TransactionalKafkaSinkTask one = fixture.start(firstContext, "topics", q, "transactional.id.prefix", "p");
        one.open(List.of(first));
        one.put(records(q, 0, 0, 10));

        FakeSinkTaskContext secondContext = new FakeSinkTaskContext();
        TransactionalKafkaSinkTask other = fixture.start(secondContext, "transactional.id.prefix", "p.q");
        other.open(List.of(second));
        other.put(records(source, 0, 0, 5));
        one.put(records(q, 0, 10, 15));

        assertThat(secondContext.seeks).as("no progress of the other connector's partition").isEmpty();
        assertThat(values(committed(kafka, fixture.target))).as("the second prefix's records, from its first")
                .containsExactlyElementsOf(IntStream.range(0, 5).mapToObj(i -> "v" + i).toList());
        assertThat(values(committed(kafka, "copy." + q))).as("the first, never fenced by the second")
                .containsExactlyElementsOf(IntStream.range(0, 15).mapToObj(i -> "v" + i).toList());
    }

    @Test
    void reportsTheWorkersPositionPastRecordsDroppedBeforePutAndMovesTheProgressThereOnlyOnceNothingWaitsAndNoSeekIsPending() {
        TransactionalKafkaSinkTask task = fixture.start(new FakeSinkTaskContext(), "commit.interval.ms", "30000");
        task.open(List.of(partition));
        task.put(records(source, 0, 0, 10));
        assertThat(task.preCommit(Map.of(partition, new OffsetAndMetadata(10)))).as("10 records wait")
                .isEmpty();
        task.put(records(source, 0, 10, 10)); // nothing: the worker's transforms dropped 10..19 of its poll
        task.stop();

        FakeSinkTaskContext context = new FakeSinkTaskContext();
        TransactionalKafkaSinkTask second = fixture.start(context, "commit.interval.ms", "0");
        second.open(List.of(partition));
        second.put(records(source, 0, 0, 10));
        assertThat(second.preCommit(Map.of(partition, new OffsetAndMetadata(10))))
                .containsEntry(partition, new OffsetAndMetadata(10));
        second.put(List.of()); // the worker's next poll: records 10..19, all dropped by an SMT before put
        assertThat(second.preCommit(Map.of(partition, new OffsetAndMetadata(20)))).as("advances past the dropped")
                .containsEntry(partition, new OffsetAndMetadata(20));

        FakeSinkTaskContext third = new FakeSinkTaskContext();
        TransactionalKafkaSinkTask reopened = fixture.start(third, "commit.interval.ms", "0");
        reopened.open(List.of(partition));
        reopened.put(List.of());
        assertThat(third.seeks).as("sought to its progress, moved past the dropped records with the position")
                .containsEntry(partition, 20L);
        assertThat(reopened.preCommit(Map.of(partition, new OffsetAndMetadata(25))))
                .as("sought to its progress: the worker's position is not where it resumes until the next poll")
                .containsEntry(partition, new OffsetAndMetadata(20));
    }

    @Test
    void mapsRecordsOfPartitionsTheTargetTopicLacksByTheirKeyHash() {
        TopicPartition third = new TopicPartition(source, 2);
        TransactionalKafkaSinkTask task = fixture.start(new FakeSinkTaskContext());
        task.open(List.of(partition, third));
        List<SinkRecord> batch = records(source, 0, 0, 5);
        batch.addAll(records(source, 2, 0, 5));
        task.put(batch);

        assertThat(committed(kafka, fixture.target)).as("the target topic has one partition").hasSize(10)
                .allSatisfy(r -> assertThat(r.partition()).isZero());
        assertThat(committed(kafka, fixture.dlq)).isEmpty();
    }

    @Test
    void deadLettersRecordsOfPartitionsTheTargetTopicLacksWithKeep() {
        TopicPartition third = new TopicPartition(source, 2);
        TransactionalKafkaSinkTask task = fixture.start(new FakeSinkTaskContext(), "target.partition.mapping", "keep");
        task.open(List.of(partition, third));
        List<SinkRecord> batch = records(source, 0, 0, 5);
        batch.addAll(records(source, 2, 0, 5));
        task.put(batch);

        assertThat(committed(kafka, fixture.target)).hasSize(5);
        assertThat(committed(kafka, fixture.dlq)).hasSize(5).allSatisfy(letter -> assertThat(
                header(letter, DeadLetterHeaders.CONNECT_EXCEPTION))
                .isEqualTo("org.apache.kafka.common.errors.UnknownTopicOrPartitionException"));
    }

    @Test
    void createsAMissingTargetTopicWithThePartitionsAndConfigsGiven() throws Exception {
        String created = "created." + source;
        TransactionalKafkaSinkTask task = fixture.start(new FakeSinkTaskContext(),
                "target.topic.format", "created.${topic}", "target.topic.creation.partitions", "3",
                "target.topic.creation.cleanup.policy", "compact");
        task.open(List.of(new TopicPartition(source, 2)));
        task.put(records(source, 2, 0, 5));

        try (Admin admin = kafka.admin()) {
            assertThat(admin.describeTopics(List.of(created)).allTopicNames().get(30, TimeUnit.SECONDS).get(created)
                    .partitions()).hasSize(3);
            ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, created);
            assertThat(admin.describeConfigs(List.of(resource)).all().get(30, TimeUnit.SECONDS).get(resource)
                    .get("cleanup.policy").value()).isEqualTo("compact");
        }
        assertThat(committed(kafka, created)).hasSize(5).allSatisfy(r -> assertThat(r.partition()).isEqualTo(2));
    }
}
