package dev.quarantine.connect.sink.write;

import static dev.quarantine.connect.sink.TestData.bytes;
import static dev.quarantine.connect.sink.TestData.records;
import static dev.quarantine.connect.sink.TestData.text;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.InvalidRecordException;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.connect.converters.ByteArrayConverter;
import org.apache.kafka.connect.errors.RetriableException;
import org.apache.kafka.connect.sink.SinkRecord;
import org.junit.jupiter.api.Test;

import dev.quarantine.connect.faults.FaultyConverter;
import dev.quarantine.connect.sink.BytesOrStringHeaderConverter;
import dev.quarantine.connect.sink.TestData;
import dev.quarantine.connect.sink.TestPluginMetrics;
import dev.quarantine.connect.sink.cluster.HangingTransactionCheck;
import dev.quarantine.connect.sink.cluster.LastTransaction;
import dev.quarantine.connect.sink.config.TopicFormat;
import dev.quarantine.connect.sink.metrics.SinkMetrics;
import dev.quarantine.connect.sink.metrics.WorkerPluginMetrics;
import dev.quarantine.connect.sink.progress.CommitCompletion;
import dev.quarantine.connect.sink.progress.ProgressRecord;
import dev.quarantine.connect.sink.progress.ProgressTarget;
import dev.quarantine.connect.sink.progress.RedoRange;
import dev.quarantine.txn.DeadLetterBreaker;

/** The writer and its parts (attempt, committer, isolator, classification) over a scripted MockProducer. */
class PartitionWriterTest {

    private static final String GROUP = "sink.orders-0";
    private static final TopicPartition SOURCE = new TopicPartition("orders", 0);
    private static final Uuid PROGRESS_TOPIC_ID = Uuid.randomUuid();
    private static final TopicPartition TARGET = new TopicPartition("copy.orders", 0);
    /** Per test: a redo one test begins must not reach another. */
    private final ProgressTarget progressTarget = ProgressTarget.known("progress", PROGRESS_TOPIC_ID);

    private final ScriptedProducer producer = new ScriptedProducer();
    private final TestPluginMetrics metrics = new TestPluginMetrics();
    private final RecordingHangingCheck hanging = new RecordingHangingCheck();

    /** Records which topics the writer looks at for records an abort left open; fails once when told to. */
    private static final class RecordingHangingCheck implements HangingTransactionCheck {
        final List<String> checked = new ArrayList<>();
        final List<Set<TopicPartition>> lookedBeforeAbort = new ArrayList<>();
        RuntimeException failure;
        /** Where the failing transaction's producer id has a transaction open, from which offset. */
        Map<TopicPartition, Long> openFrom = Map.of();
        /** How often the producer had been flushed at each look. */
        final List<Integer> flushesAtLook = new ArrayList<>();
        ScriptedProducer flushed;
        /** The committed last transaction left open on the progress partition, as found before initTransactions. */
        Optional<LastTransaction> commitOnProgress = Optional.empty();
        /** Where the commit looked for at open is left open; the commits it was asked about, named or not. */
        Set<TopicPartition> leftOpen = Set.of();
        final List<Optional<LastTransaction>> namedAtOpen = new ArrayList<>();
        final List<Set<TopicPartition>> abortedForRedo = new ArrayList<>();

        @Override
        public Optional<LastTransaction> lastCommitLeftOpen(String transactionalId) {
            return commitOnProgress;
        }

        @Override
        public Set<TopicPartition> committedLeftOpen(String transactionalId, Collection<String> topics,
                                                     Optional<RedoRange> redo, Optional<LastTransaction> named) {
            namedAtOpen.add(named);
            return leftOpen;
        }

        @Override
        public void abortForRedo(String transactionalId, Set<TopicPartition> partitions) {
            abortedForRedo.add(partitions);
        }

        @Override
        public Map<TopicPartition, Long> openFrom(String transactionalId, Set<TopicPartition> among,
                                                  Instant deadline) {
            lookedBeforeAbort.add(among);
            if (flushed != null) {
                flushesAtLook.add(flushed.flushes);
            }
            return openFrom;
        }

        @Override
        public boolean lastTransactionAborted(String transactionalId) {
            return false;
        }

        @Override
        public void abortBeforeWriting(String transactionalId, Collection<String> topics) {
            checked.add(transactionalId + " " + topics);
            RuntimeException thrown = failure;
            failure = null;
            if (thrown != null) {
                throw thrown;
            }
        }
    }

    @Test
    void commitsTheBatchAndItsProgressInOneTransaction() {
        PartitionWriter writer = writer(3);

        write(writer, records("orders", 0, 0, 3));

        assertThat(values(producer.history())).containsExactly("v0", "v1", "v2");
        assertThat(producer.consumerGroupOffsetsHistory()).isEmpty();
        assertThat(producer.progressHistory()).singleElement().satisfies(progress -> {
            assertThat(progress.topic()).isEqualTo("progress");
            assertThat(progress.partition()).isZero();
            assertThat(text(progress.key())).isEqualTo(GROUP);
            assertThat(ProgressRecord.parse(progress.value())).isEqualTo(new ProgressRecord(0, 3, PROGRESS_TOPIC_ID,
                    Optional.empty(), Map.of(), Optional.empty()));
        });
        assertThat(writer.nextOffset()).hasValue(3);
    }

    @Test
    void failsNamingTheProgressTopicWhenItsProgressRecordIsRefusedAndCommitsNothing() {
        producer.broker = record -> record.topic().equals("progress")
                ? new TopicAuthorizationException(java.util.Set.of("progress")) : null;
        PartitionWriter writer = writer(3);

        assertThatThrownBy(() -> write(writer, records("orders", 0, 0, 3)))
                .hasMessageStartingWith("The progress of orders-0 cannot be written to the progress topic progress")
                .hasMessageContaining("WRITE and DESCRIBE on topic progress");
        assertThat(producer.history()).isEmpty();
        assertThat(writer.nextOffset()).isEmpty();
    }

    @Test
    void abortsAProgressRecordAnAbortLeftOpenBeforeTheProgressIsReadOnlyWhenTheIdsLastTransactionWasAborted() {
        PartitionWriter aborted = new PartitionWriter(SOURCE, producer.target(GROUP), setup(converter(), 3), true);
        PartitionWriter committed = new PartitionWriter(SOURCE, new ScriptedProducer().target("sink.orders-1"),
                setup(converter(), 3), false);

        aborted.beforeReadingProgress();
        committed.beforeReadingProgress();

        assertThat(hanging.checked).containsExactly(GROUP + " [progress]");
    }

    @Test
    void looksForRecordsAnAbortLeftOpenBeforeWritingTheBatchAgainAndNotAfterACommit() {
        producer.commitFailures.add(new TimeoutException("broker restarting"));
        PartitionWriter writer = writer(3);

        write(writer, records("orders", 0, 0, 3));
        write(writer, records("orders", 0, 3, 6));

        assertThat(producer.aborts).isEqualTo(1);
        assertThat(hanging.checked).containsExactly(GROUP + " [copy.orders, dlq, progress]");
        assertThat(values(producer.history())).containsExactly("v0", "v1", "v2", "v3", "v4", "v5");
    }

    @Test
    void looksForRecordsLeftOpenBeforeItsFirstBatchWhenTheIdsLastTransactionWasAborted() {
        PartitionWriter writer = new PartitionWriter(SOURCE, producer.target(GROUP),
                setup(converter(), 3), true);

        write(writer, records("orders", 0, 0, 3));

        assertThat(hanging.checked).containsExactly(GROUP + " [copy.orders, dlq, progress]");
        assertThat(values(producer.history())).containsExactly("v0", "v1", "v2");
    }

    @Test
    void writesNothingWhileTheLookForRecordsLeftOpenFailsAndLooksAgainNextTime() {
        RetriableException slow = new RetriableException("target cluster slow");
        hanging.failure = slow;
        PartitionWriter writer = new PartitionWriter(SOURCE, producer.target(GROUP), setup(converter(), 3), true);

        assertThatThrownBy(() -> write(writer, records("orders", 0, 0, 3))).isSameAs(slow);
        assertThat(producer.history()).isEmpty();
        write(writer, records("orders", 0, 0, 3));

        assertThat(hanging.checked).containsExactly(GROUP + " [copy.orders, dlq, progress]",
                GROUP + " [copy.orders, dlq, progress]");
        assertThat(values(producer.history())).containsExactly("v0", "v1", "v2");
    }

    @Test
    void abortsAndWritesTheBatchAgainAfterATransientCommitFailure() {
        producer.commitFailures.add(new TimeoutException("coordinator slow"));
        PartitionWriter writer = writer(3);

        write(writer, records("orders", 0, 0, 3));

        assertThat(producer.aborts).isEqualTo(1);
        assertThat(values(producer.history())).containsExactly("v0", "v1", "v2");
        assertThat(metrics.value("transactions-aborted-total")).isEqualTo(1.0);
    }

    @Test
    void handsTheBatchBackToConnectOnceTheRetryBudgetIsSpent() {
        for (int i = 0; i < 3; i++) {
            producer.commitFailures.add(new TimeoutException("coordinator down"));
        }
        PartitionWriter writer = writer(2);

        assertThatThrownBy(() -> write(writer, records("orders", 0, 0, 3))).isInstanceOf(RetriableException.class)
                .hasMessageContaining("in 3 attempts");
        assertThat(producer.history()).isEmpty();
        assertThat(producer.aborts).isEqualTo(3);
        assertThat(writer.nextOffset()).isEmpty();
    }

    @Test
    void handsTheBatchBackOnceThePutsBoundForWritingHasPassedThoughRetriesAreLeft() {
        producer.commitFailures.add(new TimeoutException("coordinator slow"));
        PartitionWriter writer = writer(100);
        writer.add(records("orders", 0, 0, 3), 0);

        assertThatThrownBy(() -> writer.write(Instant.now())).isInstanceOf(RetriableException.class)
                .hasMessageContaining("in 1 attempts, the last this put may start")
                .hasMessageContaining("consumer.override.max.poll.interval.ms");
        assertThat(producer.aborts).isEqualTo(1);
        assertThat(producer.history()).isEmpty();
        assertThat(writer.pending().count()).as("kept waiting for the batch delivered again").isEqualTo(3);
    }

    @Test
    void isolatesTheRecordTheBrokerRejectsAndDeadLettersItBetweenTheOthers() {
        producer.broker = r -> "v2".equals(text(r.value())) && r.topic().startsWith("copy.")
                ? new InvalidRecordException("compacted topic needs a key") : null;
        PartitionWriter writer = writer(3);

        write(writer, records("orders", 0, 0, 5));

        assertThat(producer.history()).extracting(ProducerRecord::topic)
                .containsExactly("copy.orders", "copy.orders", "dlq", "copy.orders", "copy.orders");
        assertThat(values(producer.history())).containsExactly("v0", "v1", "v2", "v3", "v4");
        assertThat(writer.nextOffset()).hasValue(5);
    }

    @Test
    void redoesItsOwnCommitTheFailingTransactionHoldsOpenInsteadOfLosingItToTheAbort() {
        PartitionWriter writer = writer(3);
        write(writer, records("orders", 0, 0, 3)); // on copy.orders-0 at offsets 0..2
        TopicPartition target = new TopicPartition("copy.orders", 0);
        hanging.openFrom = Map.of(target, 0L); // its markers skipped: the open transaction there starts at 0
        producer.broker = r -> "v4".equals(text(r.value())) && r.topic().startsWith("copy.")
                ? new InvalidRecordException("compacted topic needs a key") : null;

        assertThatThrownBy(() -> write(writer, records("orders", 0, 3, 6)))
                .isInstanceOfSatisfying(WriterErrors.RedoBegun.class, redo -> assertThat(redo.resumeAt).isZero());
        assertThat(hanging.lookedBeforeAbort).containsExactly(Set.of(target));
        assertThat(writer.nextOffset()).as("resumes at the held commit's first record").hasValue(0);
        assertThat(writer.pending().count()).as("what waited is delivered again").isZero();
        assertThat(ProgressRecord.parse(producer.progressHistory().get(1).value()).redo())
                .as("the intent, committed after the abort").contains(new RedoRange(3, Set.of(target)));
    }

    @Test
    void flushesTheFailingTransactionsRecordsBeforeLookingSoThatTheLookSeesTheirPartitions() {
        hanging.flushed = producer;
        PartitionWriter writer = writer(3);
        write(writer, records("orders", 0, 0, 3));
        int flushesBefore = producer.flushes;
        producer.commitFailures.add(new TimeoutException("broker restarting"));

        write(writer, records("orders", 0, 3, 6));

        assertThat(hanging.flushesAtLook).as("flushed once more before the look").containsExactly(flushesBefore + 1);
    }

    @Test
    void carriesItsHeldCommitsWithTheBrokenProducerWhenTheAbortTimesOut() {
        PartitionWriter writer = committedThenHeldOpen();
        producer.commitFailures.add(new TimeoutException("broker restarting"));
        producer.abortFailures.add(new TimeoutException("Timeout expired while awaiting EndTxn(false)"));

        assertThatThrownBy(() -> write(writer, records("orders", 0, 3, 6)))
                .isInstanceOfSatisfying(WriterErrors.BrokenProducer.class, broken -> assertThat(broken.redo())
                        .contains(new CarriedRedo(0, new RedoRange(3, Set.of(TARGET)))))
                .hasMessageContaining("source offsets 0 to 2 on copy.orders-0");
        assertThat(producer.progressHistory()).as("no intent: the producer cannot commit").hasSize(1);
        assertThat(writer.pending().count()).as("kept for the re-establishment").isEqualTo(3);
    }

    @Test
    void carriesItsHeldCommitsWithTheFenceWhenTheAbortIsFenced() {
        PartitionWriter writer = committedThenHeldOpen();
        producer.commitFailures.add(new TimeoutException("broker restarting"));
        producer.abortFailures.add(new ProducerFencedException("the coordinator aborted it on timeout"));

        assertThatThrownBy(() -> write(writer, records("orders", 0, 3, 6)))
                .isInstanceOfSatisfying(WriterErrors.Fenced.class, fenced -> assertThat(fenced.redo())
                        .contains(new CarriedRedo(0, new RedoRange(3, Set.of(TARGET)))));
    }

    @Test
    void theNextProducerCommitsTheCarriedIntentBeforeWritingAndResumesAtTheHeldCommit() {
        ScriptedProducer next = new ScriptedProducer();
        PartitionWriter writer = new PartitionWriter(SOURCE, next.target(GROUP), setup(converter(), 3), true);
        ProgressRecord last = new ProgressRecord(0, 3, PROGRESS_TOPIC_ID, Optional.empty(), Map.of(),
                Optional.empty());

        long resumeAt = writer.restored(last, Optional.of(new CarriedRedo(0, new RedoRange(3, Set.of(TARGET)))));

        assertThat(resumeAt).isZero();
        assertThat(writer.nextOffset()).hasValue(0);
        assertThat(next.progressHistory()).singleElement().satisfies(intent -> {
            ProgressRecord read = ProgressRecord.parse(intent.value());
            assertThat(read.next()).isZero();
            assertThat(read.redo()).contains(new RedoRange(3, Set.of(TARGET)));
        });
        assertThat(next.history()).as("nothing else before it").isEmpty();
    }

    @Test
    void theNextProducerDoesNotMoveTheProgressBackWhenItWentOnPastTheCarriedRedo() {
        ScriptedProducer next = new ScriptedProducer();
        PartitionWriter writer = new PartitionWriter(SOURCE, next.target(GROUP), setup(converter(), 3), true);
        ProgressRecord last = new ProgressRecord(6, 9, PROGRESS_TOPIC_ID, Optional.empty(), Map.of(),
                Optional.empty());

        long resumeAt = writer.restored(last, Optional.of(new CarriedRedo(0, new RedoRange(3, Set.of(TARGET)))));

        assertThat(resumeAt).isEqualTo(9);
        assertThat(next.progressHistory()).isEmpty();
    }

    @Test
    void failsNamingTheHeldRecordsAndCommitsNoIntentWhenAFatalErrorBrokeTheAbort() {
        PartitionWriter writer = committedThenHeldOpen();
        producer.broker = r -> "v4".equals(text(r.value())) ? new TopicAuthorizationException("copy.orders") : null;
        producer.abortFailures.add(new KafkaException("Cannot execute transactional method because we are in an"
                + " error state"));

        assertThatThrownBy(() -> write(writer, records("orders", 0, 3, 6)))
                .isInstanceOf(WriterErrors.RedoLost.class)
                .hasMessageContaining("The records of orders-0, source offsets 0 to 2 on copy.orders-0")
                .hasMessageContaining("alter its offset for orders-0 to 0")
                .hasMessageContaining("orders-0@4").hasMessageContaining("ACLs");
        assertThat(producer.progressHistory()).as("no intent").hasSize(1);
    }

    @Test
    void commitsTheIntentBeforeFailingWhenTheAbortAfterAFatalErrorWorked() {
        PartitionWriter writer = committedThenHeldOpen();
        producer.broker = r -> "v4".equals(text(r.value())) ? new TopicAuthorizationException("copy.orders") : null;

        assertThatThrownBy(() -> write(writer, records("orders", 0, 3, 6))).isInstanceOf(WriterErrors.FatalWrite.class);
        assertThat(ProgressRecord.parse(producer.progressHistory().get(1).value()).redo())
                .as("the intent, for the next open").contains(new RedoRange(3, Set.of(TARGET)));
    }

    @Test
    void failsNamingTheHeldRecordsWhenTheIntentAfterAFatalErrorCannotCommit() {
        PartitionWriter writer = committedThenHeldOpen();
        producer.broker = r -> "v4".equals(text(r.value())) ? new TopicAuthorizationException("copy.orders") : null;
        producer.commitFailures.add(new KafkaException("coordinator gone"));

        assertThatThrownBy(() -> write(writer, records("orders", 0, 3, 6)))
                .isInstanceOfSatisfying(WriterErrors.RedoLost.class, lost -> assertThat(lost.getSuppressed())
                        .singleElement().isInstanceOf(WriterErrors.FatalWrite.class))
                .hasMessageContaining("source offsets 0 to 2 on copy.orders-0");
        assertThat(producer.progressHistory()).as("no intent").hasSize(1);
    }

    /** A writer that committed 0..2 on copy.orders-0, whose commit the next transaction there holds open. */
    private PartitionWriter committedThenHeldOpen() {
        PartitionWriter writer = writer(3);
        write(writer, records("orders", 0, 0, 3));
        hanging.openFrom = Map.of(TARGET, 0L);
        return writer;
    }

    @Test
    void abortsAsBeforeWhenTheOpenTransactionIsTheFailingOneAndLooksOnlyOnceItCommittedRecords() {
        producer.commitFailures.add(new TimeoutException("broker restarting"));
        PartitionWriter writer = writer(3);
        write(writer, records("orders", 0, 0, 3)); // its abort: nothing committed yet, nothing looked at
        assertThat(hanging.lookedBeforeAbort).isEmpty();
        TopicPartition target = new TopicPartition("copy.orders", 0);
        hanging.openFrom = Map.of(target, 1_000L); // above every record committed there: the failing one's own
        producer.commitFailures.add(new TimeoutException("broker restarting"));

        write(writer, records("orders", 0, 3, 6));

        assertThat(hanging.lookedBeforeAbort).containsExactly(Set.of(target));
        assertThat(values(producer.history())).containsExactly("v0", "v1", "v2", "v3", "v4", "v5");
        assertThat(writer.nextOffset()).hasValue(6);
    }

    @Test
    void reportsFencingWithoutAbortingForTheTaskToReestablishThePartition() {
        producer.commitFailures.add(new ProducerFencedException("a newer producer"));
        PartitionWriter writer = writer(3);

        assertThatThrownBy(() -> write(writer, records("orders", 0, 0, 3))).isInstanceOf(WriterErrors.Fenced.class)
                .hasMessageContaining("orders-0");
        assertThat(producer.aborts).isZero();
    }

    @Test
    void namesTheDeniedRecordNotTheProgressWhenTheProducerFailsTheProgressRecordWithTheRecordsError() {
        TopicAuthorizationException denied = new TopicAuthorizationException(java.util.Set.of("copy.orders"));
        producer.broker = r -> r.topic().equals("copy.orders") || r.topic().equals("progress") ? denied : null;
        PartitionWriter writer = writer(3);

        assertThatThrownBy(() -> write(writer, records("orders", 0, 0, 3))).isInstanceOf(WriterErrors.FatalWrite.class)
                .hasMessageContaining("orders-0@0").hasMessageContaining("copy.orders")
                .hasMessageNotContaining("progress topic");
        assertThat(producer.history()).isEmpty();
    }

    @Test
    void stopsNamingTheRecordOnAnAuthorizationErrorAfterAbortingWithoutRetrying() {
        producer.broker = r -> "v1".equals(text(r.value())) ? new TopicAuthorizationException("copy.orders") : null;
        PartitionWriter writer = writer(3);

        assertThatThrownBy(() -> write(writer, records("orders", 0, 0, 3))).isInstanceOf(WriterErrors.FatalWrite.class)
                .hasMessageContaining("orders-0@1").hasMessageContaining("TopicAuthorizationException")
                .hasMessageContaining("ACLs");
        assertThat(producer.aborts).isEqualTo(1);
        assertThat(producer.history()).isEmpty();
        assertThat(writer.pending().count()).as("the task stops: nothing of it is delivered again").isZero();
    }

    @Test
    void keepsTheWaitingRecordsOfAFencedWriteForTheHandlerToReestablishThePartition() {
        producer.commitFailures.add(new ProducerFencedException("fenced from outside"));
        PartitionWriter writer = writer(3);
        writer.add(records("orders", 0, 4, 7), 0);

        assertThatThrownBy(() -> writer.write(Instant.MAX)).isInstanceOf(WriterErrors.Fenced.class);
        assertThat(writer.pending().records()).extracting(r -> r.originalKafkaOffset()).containsExactly(4L, 5L, 6L);
    }

    @Test
    void skipsRecordsBelowTheCommittedProgress() {
        PartitionWriter writer = writer(3);
        writer.restored(2);

        write(writer, records("orders", 0, 0, 4));

        assertThat(values(producer.history())).containsExactly("v2", "v3");
    }

    @Test
    void retriesATransientConverterFailureThroughConnectWithoutDeadLettering() {
        PartitionWriter writer = new PartitionWriter(SOURCE, producer.target(GROUP), setup(new RecordConverter(
                new TopicFormat("copy.${topic}"), TestData.targetTopicsNeverSeen(), new ByteArrayConverter(),
                new FaultyConverter(), new BytesOrStringHeaderConverter()), 3), false);
        var batch = records("orders", 0, 0, 2);
        batch.set(1, TestData.sinkRecord("orders", 0, 1, "k1", bytes("flaky-unit"), 1L));

        assertThatThrownBy(() -> write(writer, batch)).isInstanceOf(RetriableException.class);
        assertThatThrownBy(() -> write(writer, batch)).isInstanceOf(RetriableException.class);
        write(writer, batch);

        assertThat(producer.history()).extracting(ProducerRecord::topic).containsOnly("copy.orders").hasSize(2);
        assertThat(producer.aborts).isEqualTo(2);
    }

    @Test
    void writesTheRecordsOfSeveralAddsInOneTransactionAndNothingBefore() {
        PartitionWriter writer = writer(3);

        writer.add(records("orders", 0, 0, 3), 0);
        writer.add(records("orders", 0, 3, 5), 1);

        assertThat(producer.history()).as("nothing is sent before the write").isEmpty();
        assertThat(writer.pending().count()).isEqualTo(5);
        writer.write(Instant.MAX);
        assertThat(producer.commitCount()).isEqualTo(1);
        assertThat(values(producer.history())).containsExactly("v0", "v1", "v2", "v3", "v4");
        assertThat(writer.nextOffset()).hasValue(5);
        assertThat(writer.pending().count()).as("nothing waits after the commit").isZero();
    }

    @Test
    void keepsTheRecordsWaitingAfterAFailedWriteAndAddsARedeliveredBatchOnce() {
        producer.commitFailures.add(new TimeoutException("broker restarting"));
        PartitionWriter writer = writer(0);
        writer.add(records("orders", 0, 0, 3), 0);
        assertThatThrownBy(() -> writer.write(Instant.MAX)).isInstanceOf(RetriableException.class);

        assertThat(writer.add(records("orders", 0, 0, 3), 1)).as("the batch Connect delivers again").isZero();
        assertThat(writer.add(records("orders", 0, 2, 4), 1)).as("only the new offset").isEqualTo(1);
        writer.write(Instant.MAX);

        assertThat(values(producer.history())).containsExactly("v0", "v1", "v2", "v3");
    }

    @Test
    void skipsRecordsBelowTheCommittedProgressWhenAdding() {
        PartitionWriter writer = writer(3);
        writer.restored(2);

        assertThat(writer.add(records("orders", 0, 0, 4), 0)).isEqualTo(2);
    }

    @Test
    void movesTheProgressAloneOnToAPositionPastItOnlyWhenNothingWaits() {
        PartitionWriter writer = writer(3);
        write(writer, records("orders", 0, 0, 3));

        assertThat(writer.advanceTo(3)).as("not past the progress").isFalse();
        writer.add(records("orders", 0, 3, 4), 0);
        assertThat(writer.advanceTo(10)).as("a record waits").isFalse();
        writer.write(Instant.MAX);
        assertThat(writer.advanceTo(10)).as("records 4..9 never reached the task").isTrue();

        assertThat(values(producer.history())).as("no record written by the move").containsExactly("v0", "v1", "v2",
                "v3");
        assertThat(producer.progressHistory()).extracting(p -> ProgressRecord.parse(p.value()).next())
                .containsExactly(3L, 4L, 10L);
        assertThat(writer.nextOffset()).hasValue(10);
    }

    @Test
    void leavesTheProgressWhereItWasWhenItsMoveFailsAndMovesItNoMoreUntilTheNextWriteRepaired() {
        PartitionWriter writer = writer(3);
        write(writer, records("orders", 0, 0, 3));
        producer.commitFailures.add(new TimeoutException("the coordinator did not answer"));

        assertThat(writer.advanceTo(10)).isFalse();
        assertThat(producer.aborts).isEqualTo(1);
        assertThat(writer.nextOffset()).hasValue(3);
        assertThat(writer.advanceTo(10)).as("the abort may have left records open: the next write repairs first")
                .isFalse();
        assertThat(producer.progressHistory()).hasSize(1);
        hanging.checked.clear();

        write(writer, records("orders", 0, 10, 11));
        assertThat(hanging.checked).as("the write repaired, with its records' topic").singleElement()
                .asString().contains("copy.orders");
        assertThat(writer.advanceTo(20)).isTrue();
    }

    @Test
    void movesNothingWhileTheLastTransactionOfTheIdBeforeThisProducerMayHaveLeftAnAbortOpen() {
        PartitionWriter writer = new PartitionWriter(SOURCE, producer.target(GROUP), setup(converter(), 3), true);
        writer.restored(3);

        assertThat(writer.advanceTo(10)).as("only a write knows the topics its records go to, to repair them")
                .isFalse();
        assertThat(producer.progressHistory()).isEmpty();
        assertThat(hanging.checked).isEmpty();
    }

    @Test
    void reportsAFenceOfTheMoveAsAFence() {
        PartitionWriter writer = writer(3);
        write(writer, records("orders", 0, 0, 3));
        producer.commitFailures.add(new ProducerFencedException("fenced from outside"));

        assertThatThrownBy(() -> writer.advanceTo(10)).isInstanceOf(WriterErrors.Fenced.class)
                .hasMessageContaining("orders-0");
        assertThat(writer.nextOffset()).hasValue(3);
    }

    @Test
    void inARedoSendsTheRecordsBelowItsEndOnlyToTheRedonePartitionsAndDropsItFromTheProgressOncePassed() {
        TopicPartition source = new TopicPartition("orders", 7);
        progressTarget.restore(source, Optional.empty(), Map.of(),
                Optional.of(new RedoRange(3, Set.of(new TopicPartition("copy.orders", 8)))));
        PartitionWriter writer = new PartitionWriter(source, producer.target("sink.orders-7"), setup(converter(), 3),
                false);
        writer.restored(0);
        List<SinkRecord> batch = records("orders", 7, 0, 5).stream().map(r -> r.kafkaOffset() == 2 // an SMT moved it
                ? r.newRecord(r.topic(), 8, r.keySchema(), r.key(), r.valueSchema(), r.value(), r.timestamp()) : r)
                .toList();

        write(writer, batch);

        assertThat(values(producer.history())).as("0 and 1 are committed on copy.orders-7 already")
                .containsExactly("v2", "v3", "v4");
        assertThat(producer.progressHistory()).singleElement().satisfies(progress -> assertThat(
                ProgressRecord.parse(progress.value())).isEqualTo(new ProgressRecord(0, 5, PROGRESS_TOPIC_ID,
                Optional.empty(), Map.of(), Optional.empty())));
    }

    @Test
    void completesACommitLeftOpenOnTheProgressPartitionWithACompletionNamingItsProducerIdAndEpoch() {
        hanging.commitOnProgress = Optional.of(new LastTransaction(false, 7000, (short) 3));

        writer(3).beforeReadingProgress();

        assertThat(producer.progressHistory()).singleElement().satisfies(completion -> {
            assertThat(text(completion.key())).isEqualTo(GROUP + "/completed");
            assertThat(CommitCompletion.parse(completion.value())).isEqualTo(new CommitCompletion(7000, (short) 3));
        });
    }

    @Test
    void looksForTheCommitAStandingCompletionNamesAndClearsTheCompletionInTheIntentsCommit() {
        hanging.leftOpen = Set.of(new TopicPartition("copy.orders", 0));
        CommitCompletion c = new CommitCompletion(7000, (short) 3);
        PartitionWriter writer = writer(3);

        long resumeAt = writer.restored(new ProgressRecord(10, 15, PROGRESS_TOPIC_ID, Optional.empty(), Map.of(),
                Optional.empty()).withLeftOpen(c), Optional.empty());

        assertThat(hanging.namedAtOpen).containsExactly(Optional.of(c.commit()));
        assertThat(resumeAt).as("C's from").isEqualTo(10);
        assertThat(producer.progressHistory()).as("one commit: the completion cleared, the intent").hasSize(2);
        assertThat(text(producer.progressHistory().get(0).key())).isEqualTo(GROUP + "/completed");
        assertThat(producer.progressHistory().get(0).value()).isNull();
        assertThat(ProgressRecord.parse(producer.progressHistory().get(1).value()).redo())
                .contains(new RedoRange(15, Set.of(new TopicPartition("copy.orders", 0))));
        assertThat(hanging.abortedForRedo).containsExactly(Set.of(new TopicPartition("copy.orders", 0)));
    }

    @Test
    void clearsAStandingCompletionWhoseCommitIsOpenNowhereAndResumesAtTheProgress() {
        PartitionWriter writer = writer(3);

        long resumeAt = writer.restored(new ProgressRecord(10, 15, PROGRESS_TOPIC_ID, Optional.empty(), Map.of(),
                Optional.empty()).withLeftOpen(new CommitCompletion(7000, (short) 3)), Optional.empty());

        assertThat(resumeAt).isEqualTo(15);
        assertThat(producer.progressHistory()).singleElement().satisfies(tombstone -> {
            assertThat(text(tombstone.key())).isEqualTo(GROUP + "/completed");
            assertThat(tombstone.value()).isNull();
        });
        assertThat(hanging.abortedForRedo).isEmpty();
    }

    @Test
    void commitsNothingAtOpenWithoutACompletionWhenNoCommitIsLeftOpen() {
        PartitionWriter writer = writer(3);

        long resumeAt = writer.restored(new ProgressRecord(10, 15, PROGRESS_TOPIC_ID, Optional.empty(), Map.of(),
                Optional.empty()), Optional.empty());

        assertThat(resumeAt).isEqualTo(15);
        assertThat(hanging.namedAtOpen).containsExactly(Optional.empty());
        assertThat(producer.progressHistory()).isEmpty();
    }

    /** Adds the records and writes them, as a put that is due does. */
    private static void write(PartitionWriter writer, List<SinkRecord> records) {
        writer.add(records, 0);
        writer.write(Instant.MAX);
    }

    private PartitionWriter writer(int retries) {
        return new PartitionWriter(SOURCE, producer.target(GROUP), setup(converter(), retries), false);
    }

    private static RecordConverter converter() {
        return new RecordConverter(new TopicFormat("copy.${topic}"), TestData.targetTopicsNeverSeen(),
                new ByteArrayConverter(), new ByteArrayConverter(), new BytesOrStringHeaderConverter());
    }

    private WriteSetup setup(RecordConverter converter, int retries) {
        return new WriteSetup(converter, Optional.of(new DeadLetters("dlq", 1_000_000, true, "sink", "0")),
                new SinkMetrics(new WorkerPluginMetrics(metrics)), new DeadLetterBreaker(100, 1.0), progressTarget, retries,
                hanging);
    }

    private static List<String> values(List<ProducerRecord<byte[], byte[]>> records) {
        return records.stream().map(r -> text(r.value())).toList();
    }
}
