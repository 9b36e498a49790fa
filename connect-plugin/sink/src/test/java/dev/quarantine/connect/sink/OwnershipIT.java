package dev.quarantine.connect.sink;

import static dev.quarantine.connect.sink.TestData.committed;
import static dev.quarantine.connect.sink.TestData.records;
import static dev.quarantine.connect.sink.TestData.sinkRecord;
import static dev.quarantine.connect.sink.TestData.values;
import static dev.quarantine.sandbox.Utf8.bytes;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.TransactionListing;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.sink.SinkRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.quarantine.connect.sink.config.TransactionalSinkConfig;

import dev.quarantine.sandbox.LocalKafka;
import dev.quarantine.sandbox.LocalKafkaExtension;
import dev.quarantine.sandbox.Utf8;

/**
 * Ownership per task on a real broker (docs/design/sink-ownership.md 5.4): tasks claim the partitions Connect gives
 * them on partition 1 of the progress topic, fence the ids that held them before ({@code Admin.fenceProducers}) and
 * only then read the progress; a task that lost a partition cannot commit it again. Every test ends with the target
 * read {@code read_committed}: every record once.
 */
@ExtendWith(LocalKafkaExtension.class)
class OwnershipIT {

    private final LocalKafka kafka;
    @RegisterExtension
    final TaskFixture fixture;
    private final TopicPartition partition;

    OwnershipIT(LocalKafka kafka) {
        this.kafka = kafka;
        fixture = new TaskFixture(kafka, "ownership", "commit.interval.ms", "30000", "commit.max.records", "20");
        fixture.createTopics();
        partition = new TopicPartition(fixture.source, 0);
    }

    /**
     * Harness row 16: Connect's offsets API claims the changed partition as {@code <prefix>:offsets#0} before it
     * fences, so a zombie task of the stopped connector whose next transaction is refused re-initialises into the
     * API's later claim and pauses the partition (LOST) instead of writing it again from the progress it reads; the
     * next owner fences {@code offsets#0} too and resumes from the change.
     */
    @Test
    void anOffsetsChangeClaimsAndFencesARunningZombie() {
        FakeSinkTaskContext zombieContext = new FakeSinkTaskContext();
        TransactionalKafkaSinkTask zombie = openedAsTask("0", zombieContext);
        zombie.put(records(fixture.source, 0, 0, 20)); // committed: progress 20

        assertThat(new TransactionalKafkaSinkConnector().alterOffsets(fixture.config(), Map.of(partition, 5L)))
                .isTrue();
        zombie.put(records(fixture.source, 0, 20, 40)); // its commit is refused: fenced
        zombie.put(List.of()); // re-initialised: reads the claims, finds the offsets API's claim
        zombie.put(records(fixture.source, 0, 5, 40)); // what it would write had it read the changed progress

        assertThat(values(committed(kafka, fixture.target))).as("nothing of the zombie's after the change")
                .containsExactlyElementsOf(IntStream.range(0, 20).mapToObj(i -> "v" + i).toList());
        assertThat(zombieContext.metrics.value("partitions-lost-total")).as("the zombie lost the partition")
                .isEqualTo(1.0);
        assertThat(zombie.preCommit(Map.of())).as("the zombie reports nothing of the partition").isEmpty();

        FakeSinkTaskContext ownerContext = new FakeSinkTaskContext();
        TransactionalKafkaSinkTask owner = openedAsTask("1", ownerContext);
        owner.put(List.of()); // claims, fences the zombie and offsets#0, reads the changed progress
        assertThat(ownerContext.seeks).as("resumes where the offsets API set it").containsExactly(Map.entry(partition,
                5L));
        owner.put(records(fixture.source, 0, 5, 40));
        zombie.put(records(fixture.source, 0, 40, 60)); // nothing of a lost partition is taken

        List<String> expected = new ArrayList<>(IntStream.range(0, 20).mapToObj(i -> "v" + i).toList());
        IntStream.range(5, 40).forEach(i -> expected.add("v" + i));
        assertThat(values(committed(kafka, fixture.target))).as("every record once from the change, read_committed")
                .containsExactlyInAnyOrderElementsOf(expected);
        assertThat(owner.preCommit(Map.of())).containsExactly(Map.entry(partition, new OffsetAndMetadata(40)));
        assertThat(ownerContext.metrics.value("producers-fenced-total"))
                .as("offsets#0, the holder of the progress (the zombie's id was fenced by the API below its claim)")
                .isEqualTo(1.0);
    }

    @Test
    void aZombieTaskCannotCommitAPartitionAnotherTaskClaimed() {
        FakeSinkTaskContext zombieContext = new FakeSinkTaskContext();
        TransactionalKafkaSinkTask zombie = openedAsTask("0", zombieContext);
        zombie.put(records(fixture.source, 0, 0, 20)); // committed: progress 20
        zombie.put(records(fixture.source, 0, 20, 30)); // waiting

        FakeSinkTaskContext ownerContext = new FakeSinkTaskContext();
        TransactionalKafkaSinkTask owner = openedAsTask("1", ownerContext);
        assertThat(ownerContext.metrics.value("partitions-owned")).as("opened, not yet claimed").isEqualTo(0.0);
        owner.put(List.of()); // claims the partition, fences task 0, reads the progress
        assertThat(ownerContext.seeks).containsExactly(Map.entry(partition, 20L));
        assertThat(ownerContext.metrics.value("partitions-owned")).isEqualTo(1.0);

        zombie.put(records(fixture.source, 0, 30, 40)); // 20 wait: its transaction is refused, fenced
        zombie.put(records(fixture.source, 0, 20, 40)); // re-initialised: finds the later claim, LOST
        owner.put(records(fixture.source, 0, 20, 40));
        zombie.put(records(fixture.source, 0, 40, 60)); // nothing of a lost partition is taken

        assertThat(values(committed(kafka, fixture.target))).as("every record once, read_committed")
                .containsExactlyElementsOf(IntStream.range(0, 40).mapToObj(i -> "v" + i).toList());
        assertThat(zombie.preCommit(Map.of())).as("the zombie reports nothing of the partition").isEmpty();
        assertThat(owner.preCommit(Map.of())).containsExactly(Map.entry(partition, new OffsetAndMetadata(40)));
        // what an operator sees (issue 23 step 7): each task claimed the partition once, the owner fenced the one id
        // that held it, the zombie lost it
        assertThat(ownerContext.metrics.value("partitions-claimed-total")).isEqualTo(1.0);
        assertThat(ownerContext.metrics.value("producers-fenced-total")).isEqualTo(1.0);
        assertThat(ownerContext.metrics.value("partitions-lost-total")).isEqualTo(0.0);
        assertThat(zombieContext.metrics.value("partitions-claimed-total")).isEqualTo(1.0);
        assertThat(zombieContext.metrics.value("producers-fenced-total")).as("no earlier holder").isEqualTo(0.0);
        assertThat(zombieContext.metrics.value("partitions-lost-total")).isEqualTo(1.0);
        assertThat(ownerContext.metrics.value("partitions-owned")).isEqualTo(1.0);
        assertThat(zombieContext.metrics.value("partitions-owned")).as("lost, assigned still").isEqualTo(0.0);
        owner.close(List.of(partition));
        assertThat(ownerContext.metrics.value("partitions-owned")).as("closed").isEqualTo(0.0);
    }

    @Test
    void twoTasksTakingOnePartitionInOneRebalanceLeaveOneWriter() {
        FakeSinkTaskContext firstContext = new FakeSinkTaskContext();
        FakeSinkTaskContext secondContext = new FakeSinkTaskContext();
        TransactionalKafkaSinkTask first = fixture.start(firstContext, "quarantine.task.id", "1");
        TransactionalKafkaSinkTask second = fixture.start(secondContext, "quarantine.task.id", "2");
        first.open(List.of(partition));
        second.open(List.of(partition)); // a stale assignment: both were given the partition
        first.put(List.of());
        second.put(List.of()); // the later claim: fences task 1

        first.put(records(fixture.source, 0, 0, 20)); // its transaction is refused: fenced by task 2
        second.put(records(fixture.source, 0, 0, 20));
        first.put(records(fixture.source, 0, 20, 40)); // re-initialised: finds the later claim, LOST
        second.put(records(fixture.source, 0, 20, 40));

        assertThat(values(committed(kafka, fixture.target))).as("every record once, by the later claimant")
                .containsExactlyElementsOf(IntStream.range(0, 40).mapToObj(i -> "v" + i).toList());
        assertThat(first.preCommit(Map.of())).isEmpty();
        assertThat(second.preCommit(Map.of())).containsExactly(Map.entry(partition, new OffsetAndMetadata(40)));
    }

    @Test
    void writesManyPartitionsWithOneTransactionalIdPerTask() throws Exception {
        kafka.createTopic(fixture.target + ".wide", 1, Map.of());
        List<TopicPartition> partitions = IntStream.range(0, 50)
                .mapToObj(p -> new TopicPartition(fixture.source, p)).toList();
        TransactionalKafkaSinkTask task = fixture.start(new FakeSinkTaskContext(), "quarantine.task.id", "3",
                "commit.max.records", "100", "target.topic.format", "copy.${topic}.wide");
        task.open(partitions);
        List<org.apache.kafka.connect.sink.SinkRecord> batch = new ArrayList<>();
        partitions.forEach(p -> batch.addAll(records(fixture.source, p.partition(), 0, 2)));
        task.put(batch);

        List<String> ids;
        try (Admin admin = kafka.admin()) {
            ids = admin.listTransactions().all().get(30, TimeUnit.SECONDS).stream()
                    .map(TransactionListing::transactionalId)
                    .filter(id -> id.startsWith(fixture.source + ":")).toList();
        }
        assertThat(ids).as("one slot of task 3 for 50 partitions").containsExactly(fixture.source + ":task#3.0");
        assertThat(committed(kafka, fixture.target + ".wide")).as("each partition's 2 records once").hasSize(100);
        assertThat(task.preCommit(Map.of())).hasSize(50).allSatisfy((p, offset) ->
                assertThat(offset.offset()).isEqualTo(2));
    }

    /**
     * Successor of PartitionOpeningIT (design 5.5): a task given 2,000 partitions another task wrote opens them all
     * with the one producer of its slot (one init, where the per-partition sink built 2,000) and one fence of the
     * one id that held them (its epoch one above), and copies each partition's records once from its progress.
     */
    @Test
    void opensThousandsOfPartitionsWithOneProducerAndOneFence() throws Exception {
        int count = 2_000;
        String wide = fixture.target + ".wide";
        kafka.createTopic(wide, 1, Map.of());
        List<TopicPartition> partitions = IntStream.range(0, count)
                .mapToObj(p -> new TopicPartition(fixture.source, p)).toList();
        String[] settings = {"commit.max.records", String.valueOf(count), "target.topic.format", "copy.${topic}.wide"};
        TransactionalKafkaSinkTask first = fixture.start(new FakeSinkTaskContext(), settings("0", settings));
        first.open(partitions);
        first.put(numbered(partitions, 0, 2));
        assertThat(first.preCommit(Map.of())).as("the first task wrote every partition").hasSize(count);
        fixture.stop(first);
        String firstId = fixture.source + ":task#0.0";
        int epochBefore = epoch(firstId);

        List<Map<String, Object>> built = Collections.synchronizedList(new ArrayList<>());
        FakeSinkTaskContext context = new FakeSinkTaskContext();
        SinkTaskHandler second = TaskFixture.handler(TransactionalSinkConfig.parse(fixture.config(
                settings("1", settings))), fixture.progress, Duration.ofSeconds(30), context, configs -> {
                    built.add(Map.copyOf(configs));
                    return null; // the slot's own producer, counted
                }, Optional.empty());
        try {
            second.open(partitions);
            second.put(List.of()); // claims the 2,000, fences the id that held them, reads their progress
            assertThat(context.seeks).as("every partition resumes from its progress").hasSize(count)
                    .allSatisfy((partition, offset) -> assertThat(offset).isEqualTo(2L));
            second.put(numbered(partitions, 2, 4));
            assertThat(second.preCommit(Map.of())).hasSize(count).allSatisfy((p, offset) ->
                    assertThat(offset.offset()).isEqualTo(4));
        } finally {
            second.close();
        }

        assertThat(built).as("one producer for %d partitions", count)
                .extracting(configs -> configs.get(ProducerConfig.TRANSACTIONAL_ID_CONFIG))
                .containsExactly(fixture.source + ":task#1.0");
        assertThat(epoch(firstId)).as("one fence of the id that held them").isEqualTo(epochBefore + 1);
        List<String> values = values(committed(kafka, wide));
        assertThat(values).as("every record once, read_committed").hasSize(4 * count)
                .containsExactlyInAnyOrderElementsOf(sinkValues(numbered(partitions, 0, 4)));
        try (Admin admin = kafka.admin()) {
            assertThat(admin.listTransactions().all().get(30, TimeUnit.SECONDS)).extracting(
                    TransactionListing::transactionalId).filteredOn(id -> id.startsWith(fixture.source + ":"))
                    .as("task ids only").containsExactlyInAnyOrder(firstId, fixture.source + ":task#1.0");
        }
    }

    /** Task {@code id} started over {@code context}, {@link #partition} opened on it as Connect assigns it. */
    private TransactionalKafkaSinkTask openedAsTask(String id, FakeSinkTaskContext context) {
        TransactionalKafkaSinkTask task = fixture.start(context, "quarantine.task.id", id);
        task.open(List.of(partition));
        return task;
    }

    private static String[] settings(String task, String... settings) {
        List<String> all = new ArrayList<>(List.of("quarantine.task.id", task));
        all.addAll(List.of(settings));
        return all.toArray(String[]::new);
    }

    /** Offsets {@code from} to {@code to} of each partition, each value naming its partition and offset. */
    private static List<SinkRecord> numbered(List<TopicPartition> partitions, long from, long to) {
        List<SinkRecord> records = new ArrayList<>();
        partitions.forEach(p -> IntStream.range((int) from, (int) to).forEach(offset -> records.add(sinkRecord(
                p.topic(), p.partition(), offset, "k" + offset, bytes(p.partition() + "@" + offset),
                System.currentTimeMillis()))));
        return records;
    }

    private static List<String> sinkValues(List<SinkRecord> records) {
        return records.stream().map(r -> Utf8.text((byte[]) r.value())).collect(Collectors.toList());
    }

    private int epoch(String transactionalId) throws Exception {
        try (Admin admin = kafka.admin()) {
            return admin.describeTransactions(List.of(transactionalId)).description(transactionalId)
                    .get(30, TimeUnit.SECONDS).producerEpoch();
        }
    }
}
