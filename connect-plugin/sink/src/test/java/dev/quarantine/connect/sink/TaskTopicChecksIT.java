package dev.quarantine.connect.sink;

import static dev.quarantine.connect.sink.TestData.committed;
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

import dev.quarantine.connect.sink.config.TransactionalSinkConfig;
import dev.quarantine.sandbox.Await;
import dev.quarantine.sandbox.LocalKafka;
import dev.quarantine.sandbox.LocalKafkaExtension;
import dev.quarantine.sandbox.Utf8;

/** A task's partitions' producers check records against their topics through one admin client of the task. */
@ExtendWith(LocalKafkaExtension.class)
class TaskTopicChecksIT {

    private static final int PARTITIONS = 4;

    private final LocalKafka kafka;
    @RegisterExtension
    final TaskFixture fixture;
    private final String source;

    TaskTopicChecksIT(LocalKafka kafka) {
        this.kafka = kafka;
        fixture = new TaskFixture(kafka, "checks");
        fixture.createTopics(PARTITIONS, Map.of("max.message.bytes", "5000"));
        source = fixture.source;
    }

    @Test
    void everyPartitionDeadLettersARecordOverTheTargetTopicsLimitWithOneAdminClientForTheTask() {
        // named after its topics, so the admin client's thread name tells it from other tests' tasks
        TransactionalKafkaSinkTask task = fixture.start(new FakeSinkTaskContext(), "name", source,
                TransactionalSinkConfig.TASK_ID_CONFIG, "0", "commit.interval.ms", "0"); // the put writes its records
        List<TopicPartition> partitions = IntStream.range(0, PARTITIONS)
                .mapToObj(p -> new TopicPartition(source, p)).toList();
        task.open(partitions);
        List<SinkRecord> records = new ArrayList<>();
        for (int p = 0; p < PARTITIONS; p++) {
            records.add(sinkRecord(source, p, 0, "k", Utf8.bytes("good-" + p), System.currentTimeMillis()));
            records.add(sinkRecord(source, p, 1, "k", new byte[10_000], System.currentTimeMillis()));
        }
        task.put(records);

        assertThat(topicCheckAdmins()).as("admin clients reading topic metadata for %d partitions", PARTITIONS)
                .containsExactly("kafka-admin-client-thread | " + source + "-0-txn-send-admin");
        fixture.stop(task);
        assertThat(committed(kafka, fixture.target)).hasSize(PARTITIONS);
        assertThat(committed(kafka, fixture.dlq)).as("each partition's record over max.message.bytes=5000")
                .hasSize(PARTITIONS);
        Await.until("the task's topic-check admin client to stop with the task", Duration.ofSeconds(30),
                () -> topicCheckAdmins().isEmpty());
    }

    /** Live threads of this test's admin clients that read topic metadata for the up-front checks. */
    private List<String> topicCheckAdmins() {
        return Thread.getAllStackTraces().keySet().stream().map(Thread::getName)
                .filter(name -> name.startsWith("kafka-admin-client-thread | " + source))
                .filter(name -> name.endsWith("-txn-send-admin")).toList();
    }
}
