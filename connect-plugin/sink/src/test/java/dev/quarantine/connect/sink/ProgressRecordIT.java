package dev.quarantine.connect.sink;

import static dev.quarantine.connect.sink.TestData.bytes;
import static dev.quarantine.connect.sink.TestData.committed;
import static dev.quarantine.connect.sink.TestData.records;
import static dev.quarantine.connect.sink.TestData.values;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import dev.quarantine.connect.sink.progress.ProgressStore;
import dev.quarantine.connect.sink.write.WriterFactory;
import dev.quarantine.sandbox.Await;
import dev.quarantine.sandbox.LocalKafka;
import dev.quarantine.sandbox.LocalKafkaExtension;

/**
 * The progress as records of the progress topic, on a real broker: reading past transactions of other partitions
 * that are still open, and a progress topic that is not the one the progress was written to.
 */
@ExtendWith(LocalKafkaExtension.class)
class ProgressRecordIT {

    private final LocalKafka kafka;
    private final TaskFixture fixture;
    private final String source;
    private final TopicPartition partition;
    private final String transactionalId;

    ProgressRecordIT(LocalKafka kafka) {
        this.kafka = kafka;
        // each put commits: the tests follow one transaction at a time
        fixture = new TaskFixture(kafka, "progress", "commit.interval.ms", "0");
        fixture.createTopics();
        source = fixture.source;
        partition = new TopicPartition(source, 0);
        transactionalId = WriterFactory.transactionalId(source, partition);
    }

    @AfterEach
    void stopTasks() {
        fixture.stopTasks();
    }

    @Test
    void findsItsProgressRecordAboveTheLastStableOffsetThatAnotherPartitionsOpenTransactionHoldsBack()
            throws Exception {
        TransactionalKafkaSinkTask first = fixture.start(new FakeSinkTaskContext());
        first.open(List.of(partition));
        try (KafkaProducer<byte[], byte[]> other = producer(source + ".other", 5_000)) {
            other.initTransactions();
            other.beginTransaction();
            other.send(new ProducerRecord<>(fixture.progress, 0, bytes(source + ".other-0"),
                    bytes("format=1\nnext=3\n")));
            other.flush(); // open below our record until its coordinator aborts it (transaction.timeout.ms)
            first.put(records(source, 0, 0, 10));

            FakeSinkTaskContext context = new FakeSinkTaskContext();
            TransactionalKafkaSinkTask second = fixture.start(context);
            second.open(List.of(partition));

            assertThat(context.seeks).containsExactly(Map.entry(partition, 10L));
        }
    }

    @Test
    void failsNamingTheProgressTopicWhenItWasCreatedAgainUnderARunningWriter() throws Exception {
        TransactionalKafkaSinkTask first = fixture.start(new FakeSinkTaskContext());
        first.open(List.of(partition));
        first.put(records(source, 0, 0, 10));
        // as a broker with auto.create.topics.enable=true does at the next send
        fixture.recreate(fixture.progress, Map.of("cleanup.policy", "compact"));

        Throwable[] writing = new Throwable[1];
        long[] next = {10};
        Await.until("a put to fail once the progress topic was found created again",
                ProgressStore.WATCH_INTERVAL.multipliedBy(6), () -> {
                    writing[0] = catchThrowable(() -> first.put(records(source, 0, next[0], next[0] + 10)));
                    next[0] += 10;
                    return writing[0] != null;
                });
        TransactionalKafkaSinkTask second = fixture.start(new FakeSinkTaskContext());
        Throwable reading = catchThrowable(() -> second.open(List.of(partition)));

        assertThat(writing[0]).as("the running task stops writing into the new topic")
                .hasMessageContaining("The progress topic " + fixture.progress + " was deleted and created again")
                .hasMessageContaining(source + "-0");
        assertThat(reading).as("never resumed from Connect's offsets as if there were no progress")
                .hasMessageContaining("The progress topic " + fixture.progress + " was deleted and created again")
                .hasMessageContaining(source + "-0");
    }

    @Test
    void failsNamingTheProgressTopicWhenItIsDeletedMidRunInsteadOfCommittingWithoutProgress() throws Exception {
        TransactionalKafkaSinkTask task = fixture.start(new FakeSinkTaskContext(),
                "target.producer.max.block.ms", "5000");
        task.open(List.of(partition));
        task.put(records(source, 0, 0, 10));
        try (Admin admin = kafka.admin()) {
            admin.deleteTopics(List.of(fixture.progress)).all().get(30, TimeUnit.SECONDS);
        }

        assertThatThrownBy(() -> task.put(records(source, 0, 10, 20)))
                .hasMessageContaining("The progress topic " + fixture.progress + " does not exist")
                .hasMessageContaining(source + "-0");
        task.stop();
        fixture.createAgain(fixture.progress, Map.of("cleanup.policy", "compact"));
        fixture.start(new FakeSinkTaskContext()).open(List.of(partition)); // fences and aborts what was left open
        assertThat(values(committed(kafka, fixture.target))).as("nothing commits without its progress")
                .containsExactlyElementsOf(IntStream.range(0, 10).mapToObj(i -> "v" + i).toList());
    }

    @Test
    void failsNamingTheProgressTopicWhenItRefusesTheProgressRecordInsteadOfCommittingWithoutIt() {
        String small = source + ".progress-small";
        kafka.createTopic(small, 1, Map.of("cleanup.policy", "compact", "max.message.bytes", "64"));
        TransactionalKafkaSinkTask task = fixture.start(new FakeSinkTaskContext(), "progress.topic.name", small);
        task.open(List.of(partition));

        assertThatThrownBy(() -> task.put(records(source, 0, 0, 10)))
                .hasMessageContaining("The progress of " + source + "-0 cannot be written to the progress topic "
                        + small)
                .hasMessageContaining("RecordTooLargeException");
        assertThat(committed(kafka, fixture.target)).as("nothing commits without its progress").isEmpty();
    }

    @Test
    void failsNamingTheProgressTopicWhenItIsNotCompacted() {
        String deleting = source + ".progress-deleting";
        kafka.createTopic(deleting, 1, Map.of("cleanup.policy", "delete"));
        TransactionalKafkaSinkTask task = fixture.start(new FakeSinkTaskContext(), "progress.topic.name", deleting);

        assertThatThrownBy(() -> task.open(List.of(partition)))
                .hasMessageContaining("The progress topic " + deleting + " has cleanup.policy=delete, not compact")
                .hasMessageContaining(source + "-0");
    }

    private KafkaProducer<byte[], byte[]> producer(String id, int transactionTimeoutMs) {
        Properties props = kafka.clientProps();
        props.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, id);
        props.put(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG, transactionTimeoutMs);
        return new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer());
    }
}
