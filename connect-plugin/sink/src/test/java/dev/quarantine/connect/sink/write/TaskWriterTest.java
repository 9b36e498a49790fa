package dev.quarantine.connect.sink.write;

import static dev.quarantine.connect.sink.TestData.records;
import static dev.quarantine.sandbox.Utf8.bytes;
import static dev.quarantine.sandbox.Utf8.text;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.InvalidRecordException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.apache.kafka.connect.sink.SinkRecord;
import org.junit.jupiter.api.Test;

import dev.quarantine.connect.sink.progress.OwnershipRecord;
import dev.quarantine.connect.sink.progress.ProgressRecord;
import dev.quarantine.connect.sink.progress.ProgressRecord.Holder;
import dev.quarantine.connect.sink.write.TaskTransaction.Outcome;

/** A slot's writer over the real {@link TaskTransaction} and {@link TxnSendSlotProducer}, a scripted MockProducer. */
class TaskWriterTest {

    private static final Holder HOLDER = new Holder(OwnershipRecord.taskId("sink", 0, 0), 3);
    private static final Uuid PROGRESS_TOPIC_ID = Uuid.randomUuid();
    private static final TopicPartition P0 = new TopicPartition("orders", 0);
    private static final TopicPartition P1 = new TopicPartition("orders", 1);

    private final ScriptedProducer mock = new ScriptedProducer();
    private Optional<String> dlqTopic = Optional.of("dlq");
    private final TaskWriter writer = new TaskWriter(TaskWriterTest::convert, this::letter, source -> Map.of(), false);
    /** Converts as {@link #convert}, counting each record converted. */
    private final List<Long> converted = new java.util.ArrayList<>();
    private final TaskWriter ahead = new TaskWriter(record -> {
        converted.add(record.kafkaOffset());
        return convert(record);
    }, this::letter, source -> Map.of(), true);

    @Test
    void writesTheWaitingRecordsOfEveryOpenPartitionInOneTransactionAndMovesTheirProgress() {
        openBothWithRecordsWaiting(7);

        assertThat(writer.write(transaction(mock), 0, () -> true)).isInstanceOf(Outcome.Committed.class);

        assertThat(mock.progressHistory()).hasSize(2);
        assertThat(values()).containsExactly("v0", "v1", "v5", "v6");
        assertThat(writer.committed().get(P0).next()).isEqualTo(2);
        assertThat(writer.committed().get(P1).next()).isEqualTo(7);
        assertThat(writer.committed().get(P1).holder()).hasValue(HOLDER);
    }

    /** Carried over from {@code PartitionWriterTest.isolatesTheRecordTheBrokerRejectsAndDeadLettersItBetween...}. */
    @Test
    void isolatesARejectedRecordAcrossPartitionsAndDeadLettersIt() {
        mock.broker = r -> "v6".equals(text(r.value())) ? new InvalidRecordException("refused") : null;
        openBothWithRecordsWaiting(8);

        Outcome outcome = writer.write(transaction(mock), 0, () -> true);

        assertThat(outcome).isInstanceOf(Outcome.Committed.class);
        assertThat(values()).containsExactly("v0", "v1", "v5", "letter of 6", "v7");
        assertThat(mock.progressHistory()).as("P0 and P1 before 6, then 6 as its dead letter, then 7").hasSize(4);
        assertThat(writer.committed().get(P1).next()).isEqualTo(8);
    }

    /**
     * Issue 22 item 6: an isolation starts no transaction past the put's bound; what it reached is committed, the rest
     * waits, and the next write goes on with the isolation where it stopped: every put moves it on by one transaction
     * at least, and a record found poison is not sent as itself again.
     */
    @Test
    void stopsAnIsolationAtThePutsBoundAndGoesOnWithItAtTheNextWrite() {
        int[] rejections = {0};
        mock.broker = r -> {
            if ("v2".equals(text(r.value()))) {
                rejections[0]++;
                return new InvalidRecordException("refused");
            }
            return null;
        };
        open(P0, 0);
        writer.add(P0, records("orders", 0, 0, 5), 0);
        int[] asked = {0};

        // 0..4 rejected at 2; 0..1 committed; 2 alone rejected (poison); then the bound is passed
        Outcome cut = writer.write(transaction(mock), 0, () -> ++asked[0] < 3);

        assertThat(cut).isInstanceOfSatisfying(Outcome.Committed.class,
                committed -> assertThat(committed.progress().get(P0).next()).isEqualTo(2));
        assertThat(values()).containsExactly("v0", "v1");
        assertThat(writer.waiting(P0).count()).as("2..4 wait for the next trigger").isEqualTo(3);
        assertThat(rejections[0]).isEqualTo(2);
        writer.add(P0, records("orders", 0, 5, 6), 0);

        assertThat(writer.write(transaction(mock), 0, () -> false)).isInstanceOf(Outcome.Committed.class);
        assertThat(values()).as("one transaction per put at least: the dead letter")
                .containsExactly("v0", "v1", "letter of 2");
        assertThat(writer.write(transaction(mock), 0, () -> true)).isInstanceOf(Outcome.Committed.class);
        assertThat(values()).as("the isolation's last step; 5 came after it").containsExactly("v0", "v1",
                "letter of 2", "v3", "v4");
        assertThat(writer.write(transaction(mock), 0, () -> true)).isInstanceOf(Outcome.Committed.class);

        assertThat(values()).containsExactly("v0", "v1", "letter of 2", "v3", "v4", "v5");
        assertThat(rejections[0]).as("the poison is not sent as itself again").isEqualTo(2);
        assertThat(writer.committed().get(P0).next()).isEqualTo(6);
    }

    /** Carried over from {@code PartitionWriterTest.skipsRecordsBelowTheCommittedProgressWhenAdding}. */
    @Test
    void skipsRecordsBelowTheCommittedProgress() {
        open(P0, 2);
        writer.add(P0, records("orders", 0, 0, 4), 0);

        writer.write(transaction(mock), 0, () -> true);

        assertThat(values()).containsExactly("v2", "v3");
    }

    /** Carried over from {@code PartitionWriterTest.keepsTheWaitingRecordsOfAFencedWriteForTheHandlerTo...}. */
    @Test
    void keepsTheWaitingRecordsOfAFencedWriteOnlyWhereTheProgressReadEqualsTheProgressInMemory() {
        openBothWithRecordsWaiting(7);
        mock.commitFailures.add(new ProducerFencedException("fenced from outside"));

        assertThat(writer.write(transaction(mock), 0, () -> true)).isInstanceOf(Outcome.Fenced.class);
        assertThat(writer.reopen(P0, progress(0))).isTrue();
        assertThat(writer.reopen(P1, progress(6))).as("moved by a commit whose answer was lost").isFalse();
        ScriptedProducer reinitialised = new ScriptedProducer();
        writer.write(transaction(reinitialised), 0, () -> true);

        assertThat(values(reinitialised)).containsExactly("v0", "v1");
        assertThat(writer.committed().get(P1).next()).isEqualTo(6);
    }

    /** Carried over from {@code PartitionWriterTest.movesTheProgressAloneOnToAPositionPastItOnlyWhenNothingWaits}. */
    @Test
    void movesTheProgressAloneOfPartitionsWithNothingWaitingInOneTransaction() {
        open(P0, 2);
        open(P1, 5);
        TopicPartition waits = new TopicPartition("orders", 2);
        open(waits, 0);
        writer.add(waits, records("orders", 2, 0, 1), 0);

        Outcome outcome = writer.move(transaction(mock), Map.of(P0, 9L, P1, 5L, waits, 4L));

        assertThat(outcome).isInstanceOf(Outcome.Committed.class);
        assertThat(mock.history()).isEmpty();
        assertThat(mock.progressHistory()).as("P1 is at its position, orders-2 has a record waiting").hasSize(1);
        assertThat(writer.committed().get(P0).next()).isEqualTo(9);
        assertThat(writer.committed().get(P0).from()).as("kept from the last transaction that wrote records")
                .isEqualTo(2);
        assertThat(writer.committed().get(waits).next()).isZero();
    }

    @Test
    void stopsWithAFatalOutcomeWhenARejectedRecordHasNoDeadLetterTopic() {
        dlqTopic = Optional.empty();
        mock.broker = r -> "v1".equals(text(r.value())) ? new InvalidRecordException("refused") : null;
        open(P0, 0);
        writer.add(P0, records("orders", 0, 0, 3), 0);

        assertThat(writer.write(transaction(mock), 0, () -> true)).isInstanceOfSatisfying(Outcome.Fatal.class,
                fatal -> assertThat(fatal.cause()).hasMessageContaining("orders-0@1"));
        assertThat(values()).containsExactly("v0");
        assertThat(writer.committed().get(P0).next()).isEqualTo(1);
    }

    /** Rule V's redo (design 2.7.1): below its end a record goes only where the commit was lost, from its start on. */
    @Test
    void sendsRecordsBelowTheRedosEndOnlyToTheLostPartitionFromItsStartAndCarriesTheRedoUntilItsEnd() {
        TopicPartition target = new TopicPartition("copy.orders", 0);
        writer.open(P0, progress(2).redoing(2, 6, Map.of(target, 4L)));
        writer.add(P0, records("orders", 0, 2, 5), 0);

        assertThat(writer.write(transaction(mock), 0, () -> true)).isInstanceOf(Outcome.Committed.class);
        assertThat(values()).as("2 and 3 are committed there already").containsExactly("v4");
        assertThat(writer.committed().get(P0).redo()).as("not done: 5 is below its end").isPresent();

        writer.add(P0, records("orders", 0, 5, 8), 0);
        writer.write(transaction(mock), 0, () -> true);

        assertThat(values()).containsExactly("v4", "v5", "v6", "v7");
        assertThat(writer.committed().get(P0).redo()).as("done at its end").isEmpty();
        assertThat(writer.committed().get(P0).next()).isEqualTo(8);
    }

    @Test
    void leavesOutEveryRecordBelowTheRedosEndBoundForAPartitionNotLost() {
        writer.open(P0, progress(0).redoing(0, 3, Map.of(new TopicPartition("dlq", 0), 0L)));
        writer.add(P0, records("orders", 0, 0, 4), 0);

        writer.write(transaction(mock), 0, () -> true);

        assertThat(values()).as("copy.orders-0 holds 0..2 committed").containsExactly("v3");
        assertThat(writer.committed().get(P0).next()).isEqualTo(4);
    }

    /** Rule V (c): after an abort of its own the slot looks before it writes those partitions again. */
    @Test
    void answersUnknownWhenACommitBehindTheProgressNoLongerReadsVisibleAfterItsOwnAbort() {
        List<Map<TopicPartition, ProgressRecord>> asked = new java.util.ArrayList<>();
        TaskWriter looking = new TaskWriter(TaskWriterTest::convert, this::letter, source -> Map.of(),
                TaskWriter.Tally.NONE, progress -> {
                    asked.add(progress);
                    return false;
                }, false);
        mock.broker = r -> "v1".equals(text(r.value())) ? new InvalidRecordException("refused") : null;
        looking.open(P0, progress(0));
        looking.add(P0, records("orders", 0, 0, 3), 0);

        Outcome outcome = looking.write(transaction(mock), 0, () -> true);

        assertThat(outcome).isInstanceOfSatisfying(Outcome.Unknown.class, unknown -> assertThat(unknown.cause())
                .hasMessageContaining("no longer reads visible"));
        assertThat(asked).containsExactly(Map.of(P0, progress(0)));
        assertThat(values()).as("nothing written after the abort").isEmpty();
        assertThat(looking.committed().get(P0).next()).isZero();
    }

    /** A review finding: a look after an own abort that cannot answer re-initialises the slot, as one that fails. */
    @Test
    void answersUnknownWhenTheLookAfterItsOwnAbortFails() {
        TaskWriter looking = new TaskWriter(TaskWriterTest::convert, this::letter, source -> Map.of(),
                TaskWriter.Tally.NONE, progress -> {
                    throw new org.apache.kafka.connect.errors.RetriableException("the target did not answer");
                }, false);
        mock.broker = r -> "v1".equals(text(r.value())) ? new InvalidRecordException("refused") : null;
        looking.open(P0, progress(0));
        looking.add(P0, records("orders", 0, 0, 3), 0);

        assertThat(looking.write(transaction(mock), 0, () -> true)).isInstanceOf(Outcome.Unknown.class);
        assertThat(values()).isEmpty();
    }

    /**
     * Issue 23 (8 partitions at MirrorMaker 2's rate): the records of a put are sent in a transaction begun ahead of
     * the commit trigger; the write sends only what came after, waits and commits: one transaction, each record
     * converted once.
     */
    @Test
    void sendsAheadOfTheTriggerAndCommitsWhatItSentWithTheRestInOneTransaction() {
        openBothWithRecordsWaiting(ahead, 7);
        TaskTransaction transaction = transaction(mock);

        ahead.sendAhead(() -> transaction);

        assertThat(mock.uncommittedRecords()).extracting(r -> text(r.value())).containsExactly("v0", "v1", "v5", "v6");
        assertThat(values()).as("nothing committed before the trigger").isEmpty();
        ahead.add(P1, records("orders", 1, 7, 9), 0);
        ahead.sendAhead(() -> transaction);
        ahead.add(P0, records("orders", 0, 2, 3), 0);

        assertThat(ahead.write(transaction(mock), 0, () -> true)).isInstanceOf(Outcome.Committed.class);

        assertThat(values()).containsExactly("v0", "v1", "v5", "v6", "v7", "v8", "v2");
        assertThat(mock.commitCount()).isEqualTo(1);
        assertThat(mock.progressHistory()).hasSize(2);
        assertThat(ahead.committed().get(P0).next()).isEqualTo(3);
        assertThat(ahead.committed().get(P1).next()).isEqualTo(9);
        assertThat(converted).as("each record converted once").containsExactly(0L, 1L, 5L, 6L, 7L, 8L, 2L);
        assertThat(ahead.hasAhead()).isFalse();
    }

    /** A partition closed (or sought back) after its records were sent ahead: nothing of it may commit without it. */
    @Test
    void abandonsWhatItSentAheadWhenAPartitionItSentIsClosedAndWritesTheOthersAgain() {
        openBothWithRecordsWaiting(ahead, 7);
        ahead.sendAhead(() -> transaction(mock));

        ahead.close(P0);

        assertThat(ahead.aheadSpoilt()).isTrue();
        assertThat(ahead.write(transaction(mock), 0, () -> true)).isInstanceOf(Outcome.Committed.class);
        assertThat(mock.aborts).isEqualTo(1);
        assertThat(values()).as("P0's sends aborted with the transaction").containsExactly("v5", "v6");
        assertThat(ahead.committed()).containsOnlyKeys(P1);
    }

    /** A record the broker rejects in a transaction begun ahead is isolated at the trigger as without it. */
    @Test
    void isolatesARecordRejectedAheadOfTheTriggerAsTheWriteWould() {
        mock.broker = r -> "v6".equals(text(r.value())) ? new InvalidRecordException("refused") : null;
        openBothWithRecordsWaiting(ahead, 8);
        ahead.sendAhead(() -> transaction(mock));
        ahead.add(P1, records("orders", 1, 8, 9), 0);
        ahead.sendAhead(() -> transaction(mock));

        assertThat(ahead.write(transaction(mock), 0, () -> true)).isInstanceOf(Outcome.Committed.class);

        assertThat(values()).containsExactly("v0", "v1", "v5", "letter of 6", "v7", "v8");
        assertThat(ahead.committed().get(P1).next()).isEqualTo(9);
    }

    /** preCommit's move of the progress uses the slot's producer: what was sent ahead is abandoned first. */
    @Test
    void abandonsWhatItSentAheadBeforeMovingTheProgress() {
        ahead.open(P0, progress(0));
        ahead.open(P1, progress(5));
        ahead.add(P0, records("orders", 0, 0, 2), 0);
        ahead.sendAhead(() -> transaction(mock));

        assertThat(ahead.move(transaction(mock), Map.of(P1, 9L))).isInstanceOf(Outcome.Committed.class);

        assertThat(mock.aborts).isEqualTo(1);
        assertThat(values()).isEmpty();
        assertThat(ahead.committed().get(P1).next()).isEqualTo(9);
        assertThat(ahead.write(transaction(mock), 0, () -> true)).isInstanceOf(Outcome.Committed.class);
        assertThat(values()).as("P0's records still waited").containsExactly("v0", "v1");
    }

    /** Fenced from outside while a transaction was begun ahead: the abandon answers Fenced, nothing commits. */
    @Test
    void answersFencedWhenTheTransactionBegunAheadCannotBeAborted() {
        ahead.open(P0, progress(0));
        ahead.add(P0, records("orders", 0, 0, 2), 0);
        ahead.sendAhead(() -> transaction(mock));
        mock.abortFailures.add(new ProducerFencedException("fenced from outside"));

        assertThat(ahead.abandonAhead()).hasValueSatisfying(o -> assertThat(o).isInstanceOf(Outcome.Fenced.class));
        assertThat(values()).isEmpty();
        assertThat(ahead.waiting(P0).count()).isEqualTo(2);
    }

    /** Rule V (c) holds for an abandon: an own abort that ended a commit behind the progress re-initialises. */
    @Test
    void answersUnknownWhenACommitBehindTheProgressNoLongerReadsVisibleAfterAnAbandon() {
        TaskWriter looking = new TaskWriter(TaskWriterTest::convert, this::letter, source -> Map.of(),
                TaskWriter.Tally.NONE, progress -> false, true);
        looking.open(P0, progress(0));
        looking.add(P0, records("orders", 0, 0, 2), 0);
        looking.sendAhead(() -> transaction(mock));
        looking.dropWaiting(P0);

        assertThat(looking.write(transaction(mock), 0, () -> true)).isInstanceOf(Outcome.Unknown.class);
        assertThat(mock.aborts).isEqualTo(1);
        assertThat(values()).isEmpty();
    }

    /** A send ahead left out as poison in strict mode ends the transaction; the write fails the task as it would. */
    @Test
    void answersFatalAtTheWriteWhenASendAheadMetPoisonWithoutADeadLetterTopic() {
        dlqTopic = Optional.empty();
        ahead.open(P0, progress(0));
        List<SinkRecord> batch = new java.util.ArrayList<>(records("orders", 0, 0, 2));
        batch.set(1, dev.quarantine.connect.sink.TestData.sinkRecord("orders", 0, 1, "k1", new byte[5_000], 1L));
        ahead.add(P0, batch, 0);

        ahead.sendAhead(() -> transaction(mock));

        assertThat(ahead.aheadEnded()).as("the write is due at once").isTrue();
        assertThat(mock.aborts).isEqualTo(1);
        assertThat(ahead.write(transaction(mock), 0, () -> true)).isInstanceOfSatisfying(Outcome.Fatal.class,
                fatal -> assertThat(fatal.cause()).hasMessageContaining("orders-0@1"));
        assertThat(values()).isEmpty();
    }

    /** A record the write cannot convert (a schema registry down) does not leave what was sent ahead open. */
    @Test
    void abandonsWhatItSentAheadWhenTheWriteCannotConvertARecordAddedSince() {
        TaskWriter failing = new TaskWriter(record -> {
            if (record.kafkaOffset() == 2) {
                throw new org.apache.kafka.connect.errors.RetriableException("the schema registry is down");
            }
            return convert(record);
        }, this::letter, source -> Map.of(), true);
        failing.open(P0, progress(0));
        failing.add(P0, records("orders", 0, 0, 2), 0);
        failing.sendAhead(() -> transaction(mock));
        failing.add(P0, records("orders", 0, 2, 3), 0);

        org.assertj.core.api.Assertions.assertThatThrownBy(() -> failing.write(transaction(mock), 0, () -> true))
                .isInstanceOf(org.apache.kafka.connect.errors.RetriableException.class);

        assertThat(mock.aborts).isEqualTo(1);
        assertThat(failing.hasAhead()).isFalse();
        assertThat(failing.waiting(P0).count()).as("they keep waiting for the put delivered again").isEqualTo(3);
    }

    /** A redo sends only where the lost commit wrote, decided at the write: such a partition is not sent ahead. */
    @Test
    void sendsNothingAheadWhileAPartitionHasARedoPending() {
        ahead.open(P0, progress(0).redoing(0, 3, Map.of(new TopicPartition("copy.orders", 0), 0L)));
        ahead.add(P0, records("orders", 0, 0, 2), 0);

        ahead.sendAhead(() -> transaction(mock));

        assertThat(ahead.hasAhead()).isFalse();
        assertThat(mock.uncommittedRecords()).isEmpty();
    }

    /** P0 opened at 0 with 0..1 waiting, P1 opened at 5 with 5..{@code p1To}-1 waiting. */
    private void openBothWithRecordsWaiting(long p1To) {
        openBothWithRecordsWaiting(writer, p1To);
    }

    /** As above, in {@code into}. */
    private static void openBothWithRecordsWaiting(TaskWriter into, long p1To) {
        into.open(P0, progress(0));
        into.open(P1, progress(5));
        into.add(P0, records("orders", 0, 0, 2), 0);
        into.add(P1, records("orders", 1, 5, p1To), 0);
    }

    private void open(TopicPartition source, long next) {
        writer.open(source, progress(next));
    }

    private static ProgressRecord progress(long next) {
        return new ProgressRecord(next, PROGRESS_TOPIC_ID);
    }

    private List<String> values() {
        return values(mock);
    }

    private static List<String> values(ScriptedProducer producer) {
        return producer.history().stream().map(r -> text(r.value())).toList();
    }

    /** A transaction over a freshly initialised slot producer of {@code producer}. */
    private TaskTransaction transaction(ScriptedProducer producer) {
        TxnSendSlotProducer slot = Slots.over(producer, HOLDER.id(), 1000);
        if (!producer.transactionInitialized()) {
            slot.init();
        }
        return new TaskTransaction(slot, HOLDER.id(), source -> HOLDER, new ProgressKeys(new TopicPartition("progress", 0), "sink"),
                this::letter, Duration.ofSeconds(30));
    }

    private static ProducerRecord<byte[], byte[]> convert(SinkRecord record) {
        return new ProducerRecord<>("copy.orders", 0, (byte[]) record.key(), (byte[]) record.value());
    }

    private Optional<ProducerRecord<byte[], byte[]>> letter(SinkRecord record, ProducerRecord<byte[], byte[]> refused,
                                                            Throwable error) {
        return dlqTopic.map(topic -> new ProducerRecord<>(topic, 0, null, bytes("letter of " + record.kafkaOffset())));
    }
}
