package dev.quarantine.connect.sink;

import static dev.quarantine.connect.sink.TestData.committed;
import static dev.quarantine.connect.sink.TestData.records;
import static dev.quarantine.sandbox.Utf8.bytes;
import static dev.quarantine.sandbox.Utf8.text;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.sink.SinkRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.quarantine.connect.faults.FaultyConverter;
import dev.quarantine.sandbox.LocalKafka;
import dev.quarantine.sandbox.LocalKafkaExtension;

/**
 * Issue 22 item 3 as the issue stages it, on a real broker: one put re-establishes a partition fenced from outside
 * while the other partition's write fails transiently, and Connect (a {@link WorkerLoop}) delivers as
 * WorkerSinkTask does, the failed batch again unchanged after the task's seeks.
 */
@ExtendWith(LocalKafkaExtension.class)
class TwoPartitionPutIT {

    private final LocalKafka kafka;
    @RegisterExtension
    final TaskFixture fixture;
    private final TopicPartition first;
    private final TopicPartition second;

    TwoPartitionPutIT(LocalKafka kafka) {
        this.kafka = kafka;
        fixture = new TaskFixture(kafka, "two-partitions", "commit.interval.ms", "30000", "commit.max.records", "5",
                "target.value.converter", FaultyConverter.class.getName());
        fixture.createTopics(2, Map.of());
        first = new TopicPartition(fixture.source, 0);
        second = new TopicPartition(fixture.source, 1);
    }

    @Test
    void aPutReestablishingAPartitionFencedFromOutsideWhileTheOtherFailsTransientlyLosesAndCopiesNothing()
            throws Exception {
        List<SinkRecord> firstRecords = records(fixture.source, 0, 0, 40);
        List<SinkRecord> secondRecords = records(fixture.source, 1, 0, 40);
        String flaky = "flaky-" + UUID.randomUUID(); // fails twice in the target converter, transiently
        SinkRecord at15 = secondRecords.get(15);
        secondRecords.set(15, at15.newRecord(at15.topic(), 1, at15.keySchema(), at15.key(), at15.valueSchema(),
                bytes(flaky), at15.timestamp()));
        FakeSinkTaskContext context = new FakeSinkTaskContext();
        context.assigned.addAll(List.of(first, second));
        TransactionalKafkaSinkTask task = fixture.start(context);
        task.open(List.of(first, second));
        Map<TopicPartition, List<SinkRecord>> source = new LinkedHashMap<>();
        source.put(first, firstRecords);
        source.put(second, secondRecords);
        WorkerLoop worker = new WorkerLoop(task, context, source);

        worker.iteration(5, Map.of()); // 0..4 of each: due, committed
        try (Admin admin = kafka.admin()) {
            admin.fenceProducers(List.of(TestIds.holderOf(fixture, first))).all().get(30, TimeUnit.SECONDS);
        }
        worker.iteration(3, Map.of(second, 0)); // 5..7 of the first wait (under commit.max.records)
        worker.iteration(10, Map.of()); // due: the first fenced (its 5..14 dropped, sought to 5), the second 5..14
        worker.iteration(10, Map.of()); // the first re-established from 5; the second's 15 fails transiently
        for (int i = 0; i < 50 && !worker.drained(); i++) {
            worker.iteration(10, Map.of());
        }
        task.put(List.of()); // what still waits is due by now or by the next put: write it
        task.stop();

        Map<Integer, List<String>> copied = committed(kafka, fixture.target).stream().collect(Collectors.groupingBy(
                ConsumerRecord::partition, Collectors.mapping(r -> text(r.value()), Collectors.toList())));
        assertThat(worker.drained()).as("every record delivered").isTrue();
        assertThat((double) context.metrics.value("partitions-reestablished-total")).as("the first was re-established")
                .isGreaterThan(0.0);
        assertThat(copied.get(0)).as("the partition fenced from outside: every record once, in order")
                .containsExactlyElementsOf(firstRecords.stream().map(r -> text((byte[]) r.value())).toList());
        assertThat(copied.get(1)).as("the partition that failed transiently: every record once, in order")
                .containsExactlyElementsOf(secondRecords.stream().map(r -> text((byte[]) r.value())).toList());
    }
}
