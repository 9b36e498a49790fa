package dev.quarantine.connect.sink;

import static dev.quarantine.connect.sink.TestData.committed;
import static dev.quarantine.connect.sink.TestData.records;
import static dev.quarantine.connect.sink.TestData.values;
import static dev.quarantine.sandbox.Utf8.bytes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.InvalidRecordException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.errors.RetriableException;
import org.apache.kafka.connect.sink.SinkRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.quarantine.connect.faults.FaultyConverter;
import dev.quarantine.connect.sink.write.ScriptedProducer;
import dev.quarantine.connect.sink.write.WriterFactory;
import dev.quarantine.sandbox.Await;
import dev.quarantine.sandbox.LocalKafka;
import dev.quarantine.sandbox.LocalKafkaExtension;
import dev.quarantine.sandbox.TopicReader;
import dev.quarantine.sandbox.Utf8;

/**
 * Transactions larger than one put, against a real broker: the records of several puts commit in one transaction
 * per partition, when enough wait or when the oldest has waited commit.interval.ms (the task asking the worker back
 * through context.timeout), and every record lands exactly once when a write fails transiently, a producer is fenced,
 * or a partition closed, while records wait.
 */
@ExtendWith(LocalKafkaExtension.class)
class SpanningTransactionsIT {

    private static final Duration DEADLINE = Duration.ofSeconds(60);

    private final LocalKafka kafka;
    @RegisterExtension
    final TaskFixture fixture;
    private final String source;
    private final TopicPartition first;
    private final TopicPartition second;

    SpanningTransactionsIT(LocalKafka kafka) {
        this.kafka = kafka;
        // the defaults, but an interval no test waits for unless it sets one
        fixture = new TaskFixture(kafka, "span", "commit.interval.ms", "30000");
        fixture.createTopics(2, Map.of());
        source = fixture.source;
        first = new TopicPartition(source, 0);
        second = new TopicPartition(source, 1);
    }

    @Test
    void commitsTheRecordsOfSeveralPutsInOneTransactionPerPartitionOnceCommitMaxRecordsWait() {
        FakeSinkTaskContext context = new FakeSinkTaskContext();
        TransactionalKafkaSinkTask task = fixture.start(context, "commit.max.records", "30");
        task.open(List.of(first, second));

        task.put(batch(records(source, 0, 0, 10), records(source, 1, 0, 5)));
        task.put(records(source, 0, 10, 20));
        assertThat(TopicReader.committedSoFar(kafka, fixture.target, Duration.ofSeconds(30)))
                .as("nothing commits while fewer than 30 records wait").isEmpty();
        assertThat(TopicReader.logEndOffsets(kafka, fixture.target, Duration.ofSeconds(30)).values())
                .as("their 25 records were sent ahead of the trigger, in a transaction still open")
                .containsExactlyInAnyOrder(20L, 5L);
        assertThat(task.preCommit(Map.of())).as("waiting records are not committed progress").isEmpty();
        assertThat(context.timeoutMs).as("the worker is asked back within the interval").isBetween(1L, 30_000L);
        task.put(records(source, 1, 5, 10));

        assertThat(context.metrics.value("transactions-committed-total"))
                .as("one transaction of the task's slot spanning both partitions (one per partition before 4c)")
                .isEqualTo(1.0);
        var copied = committed(kafka, fixture.target);
        assertThat(values(copied.stream().filter(r -> r.partition() == 0).toList()))
                .containsExactlyElementsOf(IntStream.range(0, 20).mapToObj(i -> "v" + i).toList());
        assertThat(values(copied.stream().filter(r -> r.partition() == 1).toList()))
                .containsExactlyElementsOf(IntStream.range(0, 10).mapToObj(i -> "v" + i).toList());
        assertThat(task.preCommit(Map.of())).containsEntry(first, new OffsetAndMetadata(20))
                .containsEntry(second, new OffsetAndMetadata(10));
    }

    @Test
    void aRecordTheTargetRefusedWhileSentAheadIsDeadLetteredAtTheTriggerAndTheRestCommitOnce() {
        List<ScriptedProducer> producers = new ArrayList<>();
        FakeSinkTaskContext context = new FakeSinkTaskContext();
        context.assigned.add(first);
        SinkTaskHandler handler = fixture.scriptedHandler(context, configs -> {
            ScriptedProducer producer = new ScriptedProducer();
            producer.refusesSendsAfterARejection = true;
            producer.broker = r -> r.topic().equals(fixture.target) && "v2".equals(Utf8.text(r.value()))
                    ? new InvalidRecordException("refused by the target") : null;
            producers.add(producer);
            return producer;
        }, "commit.max.records", "8");
        handler.open(List.of(first));

        handler.put(records(source, 0, 0, 4)); // below the trigger: sent ahead, and v2 refused
        handler.put(records(source, 0, 4, 6)); // its next send meets the refusal: the write is due at once
        handler.close();

        assertThat(producers).as("one producer: nothing fenced or initialised again").hasSize(1);
        ScriptedProducer producer = producers.get(0);
        assertThat(valuesSent(producer, fixture.target)).containsExactly("v0", "v1", "v3", "v4", "v5");
        assertThat(valuesSent(producer, fixture.dlq)).containsExactly("v2");
        // the same test with commit.interval.ms=0 (nothing sent ahead) aborts twice: the refused first step, then the
        // refused record alone; a refusal met ahead is that first step, not abandoned and sent again (a third)
        assertThat(producer.aborts).as("aborts, as many as a write that sends nothing ahead").isEqualTo(2);
    }

    private static List<String> valuesSent(ScriptedProducer producer, String topic) {
        return producer.history().stream().filter(r -> r.topic().equals(topic)).map(r -> Utf8.text(r.value()))
                .toList();
    }

    @Test
    void writesWhatWaitsOnceTheIntervalHasPassedWhenTheWorkerCallsBackWithAnEmptyPut() {
        FakeSinkTaskContext context = new FakeSinkTaskContext();
        TransactionalKafkaSinkTask task = fixture.start(context, "commit.interval.ms", "500");
        task.open(List.of(first));

        task.put(records(source, 0, 0, 5));
        task.put(records(source, 0, 5, 8));
        assertThat(context.timeoutMs).as("the poll timeout the task asks for").isBetween(1L, 500L);

        // the worker's next poll returns within that timeout, with no records: it calls put all the same
        Await.until("the waiting records written by an empty put after the interval", DEADLINE, () -> {
            task.put(List.of());
            return task.preCommit(Map.of()).containsKey(first);
        });
        assertThat(context.metrics.value("transactions-committed-total")).isEqualTo(1.0);
        assertThat(values(committed(kafka, fixture.target)))
                .containsExactlyElementsOf(IntStream.range(0, 8).mapToObj(i -> "v" + i).toList());
    }

    @Test
    void writesEveryRecordOnceWhenTheProducerIsFencedFromOutsideWhileRecordsOfSeveralPutsWait() throws Exception {
        FakeSinkTaskContext context = new FakeSinkTaskContext();
        context.assigned.add(first);
        TransactionalKafkaSinkTask task = fixture.start(context, "commit.max.records", "20");
        task.open(List.of(first));
        task.put(records(source, 0, 0, 20)); // written: the partition has progress
        task.put(records(source, 0, 20, 30));
        try (Admin admin = kafka.admin()) {
            admin.fenceProducers(List.of(TestIds.holderOf(fixture, new TopicPartition(source, 0)))).all()
                    .get(30, TimeUnit.SECONDS);
        }

        task.put(records(source, 0, 30, 40)); // 20 wait: written, fenced, sought back
        assertThat(context.seeks).as("sought back to the committed progress").containsEntry(first, 20L);
        // the worker delivers again from there: the partition is re-established, sought to the progress read
        task.put(records(source, 0, context.seeks.remove(first), 35));
        task.put(records(source, 0, context.seeks.remove(first), 35));
        task.put(records(source, 0, 35, 40));

        assertThat(values(committed(kafka, fixture.target)))
                .containsExactlyElementsOf(IntStream.range(0, 40).mapToObj(i -> "v" + i).toList());
        assertThat(task.preCommit(Map.of())).containsEntry(first, new OffsetAndMetadata(40));
        assertThat(context.metrics.value("partitions-reestablished-total")).isEqualTo(1.0);
    }

    @Test
    void dropsWhatWaitsWhenAPartitionIsClosedAndTheNextOwnerWritesEveryRecordOnce() {
        TransactionalKafkaSinkTask before = fixture.start(new FakeSinkTaskContext(), "commit.max.records", "10");
        before.open(List.of(first));
        before.put(records(source, 0, 0, 10));
        before.put(records(source, 0, 10, 15));
        assertThat(before.preCommit(Map.of())).as("what the worker commits before the close")
                .containsEntry(first, new OffsetAndMetadata(10));
        before.close(List.of(first));
        before.put(List.of()); // the worker's next put after the rebalance: nothing of the closed partition is written

        FakeSinkTaskContext context = new FakeSinkTaskContext();
        TransactionalKafkaSinkTask after = fixture.start(context, "commit.max.records", "10");
        after.open(List.of(first));
        after.put(List.of()); // open makes no round trip: the put after the next poll reads the progress
        assertThat(context.seeks).containsExactly(Map.entry(first, 10L));
        after.put(records(source, 0, 10, 20));

        assertThat(values(committed(kafka, fixture.target)))
                .containsExactlyElementsOf(IntStream.range(0, 20).mapToObj(i -> "v" + i).toList());
    }

    @Test
    void keepsWhatWaitsWhenAWriteFailsTransientlyAndWritesItOnceWhenTheWorkerDeliversThePutAgain() {
        FakeSinkTaskContext context = new FakeSinkTaskContext();
        // three failures: the first put's send ahead of the trigger meets the first (and stops sending ahead)
        TransactionalKafkaSinkTask task = fixture.start(context, "commit.max.records", "6",
                "target.value.converter", FaultyConverter.class.getName(),
                "target.value.converter.flaky.failures", "3");
        task.open(List.of(first));
        List<SinkRecord> earlier = records(source, 0, 0, 3);
        earlier.set(1, TestData.sinkRecord(source, 0, 1, "k1", bytes("flaky-" + source), 1L));
        task.put(earlier);
        List<SinkRecord> due = records(source, 0, 3, 6);

        assertThatThrownBy(() -> task.put(due)).isInstanceOf(RetriableException.class);
        assertThat(context.timeoutMs).as("the retry backoff").isEqualTo(1_000L);
        assertThatThrownBy(() -> task.put(due)).as("the converter fails twice").isInstanceOf(RetriableException.class);
        assertThat(committed(kafka, fixture.target)).isEmpty();
        task.put(due); // Connect delivers the failed put's batch again: the earlier put's records still wait

        assertThat(values(committed(kafka, fixture.target)))
                .containsExactly("v0", "flaky-" + source, "v2", "v3", "v4", "v5");
        assertThat(context.metrics.value("transactions-committed-total")).isEqualTo(1.0);
    }

    @SafeVarargs
    private static List<SinkRecord> batch(List<SinkRecord>... parts) {
        List<SinkRecord> all = new ArrayList<>();
        for (List<SinkRecord> part : parts) {
            all.addAll(part);
        }
        return all;
    }
}
