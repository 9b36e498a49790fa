package dev.quarantine.connect.sink;

import static dev.quarantine.connect.sink.TestData.committed;
import static dev.quarantine.connect.sink.TestData.records;
import static dev.quarantine.connect.sink.TestData.values;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import java.util.List;
import java.util.Map;
import java.util.stream.LongStream;

import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.errors.RetriableException;
import org.apache.kafka.connect.sink.SinkRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import dev.quarantine.sandbox.LocalKafka;

/**
 * A source cluster apart from the target cluster (two brokers of this class's own; the source one is paused), with a
 * task in process driven as Connect drives it: what the task asks the source cluster, and what happens when it does
 * not answer.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SourceClusterIT {

    private LocalKafka target;
    private LocalKafka source;
    private TaskFixture fixture;
    private TopicPartition partition;

    @BeforeAll
    void start() {
        target = LocalKafka.create().start();
        source = LocalKafka.create().start();
    }

    @BeforeEach
    void names() {
        fixture = new TaskFixture(target, "source-cluster", "commit.interval.ms", "0",
                "consumer.override.bootstrap.servers", source.bootstrapServers(),
                "consumer.override.default.api.timeout.ms", "3000", "consumer.override.request.timeout.ms", "2000");
        fixture.createTopics();
        source.createTopic(fixture.source, 1, Map.of());
        partition = new TopicPartition(fixture.source, 0);
    }

    @AfterEach
    void stopTasks() {
        source.resume();
        fixture.stopTasks();
    }

    @AfterAll
    void stop() {
        target.close();
        source.close();
    }

    /**
     * Issue 22: without consumer.override.bootstrap.servers the source topics' ids were looked up on the target
     * cluster, whatever cluster the worker's consumer reads. Here the worker would read {@code source}, and the target
     * cluster holds an unrelated topic of the same name, deleted and created again between two task starts: the
     * second task took that for the source topic created again and started the partition over at 0 (every record
     * copied again). The target cluster does not hold the connector's consumer group, so it is not taken for the
     * source cluster: no id is recorded and the partition resumes at its progress.
     */
    @Test
    void resumesAtTheProgressWhenATopicOfTheSameNameOnTheTargetClusterIsCreatedAgainAndTheSourceIsNotNamed()
            throws Exception {
        TaskFixture unnamed = new TaskFixture(target, "source-unnamed", "commit.interval.ms", "0");
        unnamed.createTopics();
        source.createTopic(unnamed.source, 1, Map.of()); // where the worker's consumer reads
        target.createTopic(unnamed.source, 1, Map.of()); // the same name on the target cluster, another id
        TopicPartition sourcePartition = new TopicPartition(unnamed.source, 0);
        try {
            FakeSinkTaskContext first = new FakeSinkTaskContext();
            TransactionalKafkaSinkTask task = unnamed.startAssigned(first, sourcePartition);
            task.put(records(unnamed.source, 0, 0, 10));
            unnamed.stop(task);

            unnamed.recreate(unnamed.source, Map.of()); // on the target cluster only
            FakeSinkTaskContext second = new FakeSinkTaskContext();
            TransactionalKafkaSinkTask reopened = unnamed.startAssigned(second, sourcePartition);
            reopened.put(List.of()); // open makes no round trip: the put after the next poll reads the progress

            assertThat(second.seeks).as("resumed at the progress, not started over").containsEntry(sourcePartition,
                    10L);
        } finally {
            unnamed.stopTasks();
        }
    }

    /**
     * Issue 22: before writing, a task checks that the source topics were not created again; a source cluster that
     * does not answer that check in time made the put throw Kafka's TimeoutException, which Connect takes for a
     * failure for good (only its own RetriableException is retried): the task died. Now the records wait, the put
     * returns, and they are written once the check succeeds.
     */
    @Test
    void keepsTheRecordsWaitingWhenTheSourceClusterDoesNotAnswerTheRecreationCheckAndWritesThemOnceItDoes() {
        FakeSinkTaskContext context = new FakeSinkTaskContext();
        // the check is retried within this bound, then the put returns with the records waiting (default 60 s)
        TransactionalKafkaSinkTask task = fixture.startAssigned(context, partition, "progress.read.timeout.ms", "5000");

        source.pause();
        assertThatCode(() -> task.put(records(fixture.source, 0, 0, 10))).as("the put while the source cluster"
                + " does not answer").doesNotThrowAnyException();
        source.resume();
        task.put(List.of());

        assertThat(values(committed(target, fixture.target))).as("each record once")
                .isEqualTo(LongStream.range(0, 10).mapToObj(offset -> "v" + offset).toList());
    }

    /**
     * A source cluster that keeps not answering the re-creation check fails the task once
     * transient.errors.timeout.ms has passed, and the error names the source cluster and its setting, not the target
     * cluster (which answered: it was blamed before, for the progress read).
     */
    @Test
    void failsNamingTheSourceClusterWhenItDoesNotAnswerTheRecreationCheckForLongerThanTheTransientErrorsTimeout() {
        FakeSinkTaskContext context = new FakeSinkTaskContext();
        TransactionalKafkaSinkTask task = fixture.startAssigned(context, partition, "progress.read.timeout.ms", "1000",
                "target.producer.transaction.timeout.ms", "2000", "transient.errors.timeout.ms", "3000");

        source.pause();
        List<SinkRecord> records = records(fixture.source, 0, 0, 10);
        Throwable failure = null;
        for (int put = 0; put < 10 && failure == null; put++) {
            try {
                task.put(put == 0 ? records : List.of());
            } catch (RuntimeException e) {
                failure = e;
            }
        }

        assertThat(failure).as("the task failed within 10 puts of about a second each").isNotNull()
                .isInstanceOf(ConnectException.class).isNotInstanceOf(RetriableException.class)
                .hasMessageContaining("transient.errors.timeout.ms=3000")
                .hasMessageContaining("Could not check the source topics of [" + partition + "] on the source cluster")
                .hasMessageContaining("Check the source cluster (consumer.override.bootstrap.servers)")
                .hasMessageNotContaining("Check the target cluster");
        source.resume();
        assertThat(committed(target, fixture.target)).as("nothing written while the check was not answered").isEmpty();
    }
}
