package dev.quarantine.connect.sink;

import static dev.quarantine.connect.sink.TestData.committed;
import static dev.quarantine.connect.sink.TestData.records;
import static dev.quarantine.connect.sink.TestData.values;
import static dev.quarantine.sandbox.Utf8.bytes;
import static org.assertj.core.api.Assertions.as;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.config.Config;
import org.apache.kafka.common.config.ConfigValue;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.assertj.core.api.InstanceOfAssertFactories;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.quarantine.connect.sink.config.TransactionalSinkConfig;
import dev.quarantine.connect.sink.progress.OwnershipRecord;
import dev.quarantine.connect.sink.progress.OwnershipRecords;
import dev.quarantine.connect.sink.progress.ProgressRecord;
import dev.quarantine.connect.sink.progress.ProgressStore;
import dev.quarantine.connect.sink.progress.ProgressTopic;
import dev.quarantine.connect.sink.write.WriterFactory;
import dev.quarantine.sandbox.Await;
import dev.quarantine.sandbox.LocalKafka;
import dev.quarantine.sandbox.LocalKafkaExtension;
import dev.quarantine.sandbox.Utf8;

/**
 * The progress as records of the progress topic, on a real broker: reading past transactions of other partitions
 * that are still open, a progress topic that is not the one the progress was written to, its two partitions, claims
 * on partition 1, and progress records of this version and today's sink read by each other.
 */
@ExtendWith(LocalKafkaExtension.class)
class ProgressRecordIT {

    private final LocalKafka kafka;
    @RegisterExtension
    final TaskFixture fixture;
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
            second.put(List.of()); // open makes no round trip: the put after the next poll reads the progress

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
        Throwable reading = catchThrowable(() -> {
            second.open(List.of(partition)); // no round trip: the put after the next poll reads the progress
            second.put(List.of());
        });

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
        TransactionalKafkaSinkTask next = fixture.start(new FakeSinkTaskContext());
        next.open(List.of(partition));
        next.put(List.of()); // open makes no round trip: this put's init fences and aborts what was left open
        assertThat(values(committed(kafka, fixture.target))).as("nothing commits without its progress")
                .containsExactlyElementsOf(IntStream.range(0, 10).mapToObj(i -> "v" + i).toList());
    }

    @Test
    void failsNamingTheProgressTopicWhenItRefusesTheProgressRecordInsteadOfCommittingWithoutIt() {
        String small = source + ".progress-small";
        kafka.createTopic(small, 2, Map.of("cleanup.policy", "compact", "max.message.bytes", "64"));
        TransactionalKafkaSinkTask task = fixture.start(new FakeSinkTaskContext(), "progress.topic.name", small);
        task.open(List.of(partition));

        // from step 4c on the partition's claim is the first record the task writes there, refused the same way
        assertThatThrownBy(() -> task.put(records(source, 0, 0, 10)))
                .hasMessageContaining("The claims of [" + source + "-0]")
                .hasMessageContaining("cannot be written to the progress topic " + small)
                .hasMessageContaining("RecordTooLargeException");
        assertThat(committed(kafka, fixture.target)).as("nothing commits without its progress").isEmpty();
    }

    @Test
    void failsNamingTheProgressTopicWhenItIsNotCompacted() {
        String deleting = source + ".progress-deleting";
        kafka.createTopic(deleting, 2, Map.of("cleanup.policy", "delete"));
        TransactionalKafkaSinkTask task = fixture.start(new FakeSinkTaskContext(), "progress.topic.name", deleting);

        task.open(List.of(partition)); // no round trip: the put after the next poll reads the progress
        assertThatThrownBy(() -> task.put(List.of()))
                .hasMessageContaining("The progress topic " + deleting + " has cleanup.policy=delete, not compact")
                .hasMessageContaining(source + "-0");
    }

    @Test
    void theConnectorCreatesATwoPartitionProgressTopicAndValidationRefusesOneWithOnlyOnePartition() throws Exception {
        String created = source + ".progress-created";
        ProgressTopic.createIfMissing(TransactionalSinkConfig.parse(fixture.config("progress.topic.name", created)));
        String onePartition = source + ".progress-one";
        kafka.createTopic(onePartition, 1, Map.of("cleanup.policy", "compact"));

        Map<String, String> props = fixture.config("consumer.override.isolation.level", "read_committed",
                "progress.topic.name", onePartition); // the fixture's own progress topic has two partitions now
        List<String> refused = errorsOf(new TransactionalKafkaSinkConnector().validate(props), "progress.topic.name");
        props.put("progress.topic.name", created);
        List<String> accepted = errorsOf(new TransactionalKafkaSinkConnector().validate(props), "progress.topic.name");

        try (Admin admin = kafka.admin()) {
            assertThat(admin.describeTopics(List.of(created)).allTopicNames().get(30, TimeUnit.SECONDS).get(created)
                    .partitions()).as("partition 0 for the progress, 1 for the claims").hasSize(2);
        }
        assertThat(refused).singleElement(as(InstanceOfAssertFactories.STRING))
                .contains("progress topic " + onePartition + ", which has 1 partition")
                .contains("kafka-topics.sh --alter --topic " + onePartition + " --partitions 2");
        assertThat(accepted).isEmpty();
    }

    @Test
    void claimsCommittedOnPartitionOneAreReadBackAsCompactionKeepsThemAndOthersAreSkipped() {
        String topic = source + ".progress-claims";
        kafka.createTopic(topic, 2, Map.of("cleanup.policy", "compact"));
        String task0 = OwnershipRecord.taskId(source, 0, 0);
        String task1 = OwnershipRecord.taskId(source, 1, 0);
        try (KafkaProducer<byte[], byte[]> claimant = producer(task0, 60_000)) {
            claimant.initTransactions();
            commit(claimant, new OwnershipRecord(partition, task0).toRecord(topic, source),
                    new ProducerRecord<>(topic, 1, bytes("other:" + source + "-0/other:task#0.0"), bytes("foreign")));
            commit(claimant, new OwnershipRecord(partition, task1).toRecord(topic, source));
            claimant.beginTransaction();
            claimant.send(new OwnershipRecord(partition, OwnershipRecord.offsetsId(source)).toRecord(topic, source));
            claimant.flush();
            claimant.abortTransaction();
            commit(claimant, new OwnershipRecord(partition, task0).toRecord(topic, source));
        }

        OwnershipRecords claims = new OwnershipRecords(source);
        committed(kafka, topic).stream().filter(r -> r.partition() == OwnershipRecord.PARTITION).forEach(r ->
                OwnershipRecord.read(source, r).ifPresent(claim -> claims.add(r.offset(), claim)));

        assertThat(claims.of(partition)).as("each id's last claim, the aborted one left out")
                .extracting(OwnershipRecords.Claim::holder).containsExactly(task1, task0);
        assertThat(claims.latest(partition).map(OwnershipRecords.Claim::holder)).contains(task0);
    }

    @Test
    void todaysTaskResumesFromAProgressRecordWithOwnershipLinesAndThisVersionReadsTodaysRecordBack()
            throws Exception {
        Uuid progressId;
        try (Admin admin = kafka.admin()) {
            progressId = admin.describeTopics(List.of(fixture.progress)).allTopicNames().get(30, TimeUnit.SECONDS)
                    .get(fixture.progress).topicId();
        }
        ProgressRecord newer = new ProgressRecord(0, 10, progressId, Optional.empty(), Map.of(), Optional.empty())
                .withOwnership(new ProgressRecord.Holder(OwnershipRecord.taskId(source, 0, 0), 0),
                        Map.of(new TopicPartition(fixture.target, 0), new ProgressRecord.Written(0, 10, 0)));
        try (KafkaProducer<byte[], byte[]> writer = producer(source + ".newer", 60_000)) {
            writer.initTransactions();
            writer.beginTransaction(); // the records its lines name, with it (rule V checks them before writing on)
            for (int i = 0; i < 10; i++) {
                writer.send(new ProducerRecord<>(fixture.target, 0, null, bytes("v" + i)));
            }
            writer.send(newer.toRecord(new TopicPartition(fixture.progress, 0), transactionalId, partition));
            writer.commitTransaction();
        }

        FakeSinkTaskContext context = new FakeSinkTaskContext();
        TransactionalKafkaSinkTask task = fixture.start(context);
        task.open(List.of(partition));
        task.put(records(source, 0, 10, 20));

        List<ProgressRecord> progress = committed(kafka, fixture.progress).stream()
                .filter(r -> r.partition() == 0 && transactionalId.equals(Utf8.text(r.key())))
                .map(r -> ProgressRecord.parse(r.value())).toList();
        assertThat(context.seeks).as("today's reader takes next and ignores the lines it does not know")
                .containsExactly(Map.entry(partition, 10L));
        assertThat(values(committed(kafka, fixture.target)))
                .containsExactlyElementsOf(IntStream.range(0, 20).mapToObj(i -> "v" + i).toList());
        assertThat(progress).as("the newer record, then today's, read back by this version").hasSize(2);
        assertThat(progress.get(0)).isEqualTo(newer);
        assertThat(progress.get(1).next()).isEqualTo(20);
        // from step 4c on the running sink writes its ownership lines (it was "today's writer writes none" before)
        assertThat(progress.get(1).holder()).as("written by the slot, under its claim")
                .map(ProgressRecord.Holder::id).contains(OwnershipRecord.taskId(source, 0, 0));
        assertThat(progress.get(1).written()).as("where its records went (rule V)")
                .containsOnlyKeys(new TopicPartition(fixture.target, 0));
    }

    /**
     * Rule V does not stop for what is gone: a committed progress record whose written line names records past the end
     * of the target partition (its topic deleted and created again, or an unclean election) is named at WARN and the
     * task writes on from the progress; what is gone cannot be read to tell committed from aborted, nothing is redone.
     */
    @Test
    void writesOnFromTheProgressWhenTheRecordsItsLastProgressNamesAreGoneFromTheTarget() throws Exception {
        Uuid progressId;
        try (Admin admin = kafka.admin()) {
            progressId = admin.describeTopics(List.of(fixture.progress)).allTopicNames().get(30, TimeUnit.SECONDS)
                    .get(fixture.progress).topicId();
        }
        ProgressRecord gone = new ProgressRecord(0, 10, progressId, Optional.empty(), Map.of(), Optional.empty())
                .withOwnership(new ProgressRecord.Holder(OwnershipRecord.taskId(source, 0, 0), 0),
                        Map.of(new TopicPartition(fixture.target, 0), new ProgressRecord.Written(0, 10, 0)));
        try (KafkaProducer<byte[], byte[]> writer = producer(source + ".gone", 60_000)) {
            writer.initTransactions();
            commit(writer, gone.toRecord(new TopicPartition(fixture.progress, 0), transactionalId, partition));
        }

        FakeSinkTaskContext context = new FakeSinkTaskContext();
        TransactionalKafkaSinkTask task = fixture.start(context);
        task.open(List.of(partition));
        task.put(records(source, 0, 10, 20));

        assertThat(context.seeks).containsExactly(Map.entry(partition, 10L));
        assertThat(values(committed(kafka, fixture.target)))
                .containsExactlyElementsOf(IntStream.range(10, 20).mapToObj(i -> "v" + i).toList());
    }

    @SafeVarargs
    private static void commit(KafkaProducer<byte[], byte[]> producer, ProducerRecord<byte[], byte[]>... records) {
        producer.beginTransaction();
        for (ProducerRecord<byte[], byte[]> record : records) {
            producer.send(record);
        }
        producer.commitTransaction();
    }

    private static List<String> errorsOf(Config config, String key) {
        return config.configValues().stream().filter(v -> v.name().equals(key)).findFirst()
                .map(ConfigValue::errorMessages).orElseThrow();
    }

    private KafkaProducer<byte[], byte[]> producer(String id, int transactionTimeoutMs) {
        Properties props = kafka.clientProps();
        props.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, id);
        props.put(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG, transactionTimeoutMs);
        return new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer());
    }
}
