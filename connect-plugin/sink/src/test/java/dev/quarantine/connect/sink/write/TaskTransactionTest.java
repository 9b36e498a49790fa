package dev.quarantine.connect.sink.write;

import static dev.quarantine.connect.sink.TestData.records;
import static dev.quarantine.connect.sink.TestData.sinkRecord;
import static dev.quarantine.sandbox.Utf8.bytes;
import static dev.quarantine.sandbox.Utf8.text;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.InvalidRecordException;
import org.apache.kafka.common.errors.InterruptException;
import org.apache.kafka.common.errors.NotEnoughReplicasException;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.connect.sink.SinkRecord;
import org.junit.jupiter.api.Test;

import dev.quarantine.connect.sink.ownership.SlotProducer.Sent;
import dev.quarantine.connect.sink.progress.OwnershipRecord;
import dev.quarantine.connect.sink.progress.ProgressRecord;
import dev.quarantine.connect.sink.progress.ProgressRecord.Holder;
import dev.quarantine.connect.sink.progress.ProgressRecord.Written;
import dev.quarantine.connect.sink.write.TaskTransaction.Outcome;
import dev.quarantine.connect.sink.write.TaskTransaction.Part;
import dev.quarantine.connect.sink.write.TaskTransaction.Write;

/**
 * One slot transaction spanning several source partitions (design 2.6, rule V of 2.7.1), over a scripted MockProducer
 * through the real {@link TxnSendSlotProducer}. Rows carried over from {@code PartitionWriterTest} name their
 * original in their javadoc; that class's rows about the look for records left open, the redo, the intent and the
 * retry budget are not this class's (step 5, and the caller's retry), nor are {@code WriterFactoryTest}'s (the
 * description of last transactions before {@code initTransactions} is the slot's, at its init).
 */
class TaskTransactionTest {

    private static final String PREFIX = "sink";
    private static final Holder HOLDER = new Holder(OwnershipRecord.taskId(PREFIX, 0, 0), 17);
    private static final Uuid PROGRESS_TOPIC_ID = Uuid.randomUuid();
    private static final TopicPartition P0 = new TopicPartition("orders", 0);
    private static final TopicPartition P1 = new TopicPartition("orders", 1);
    private static final TopicPartition TARGET = new TopicPartition("copy.orders", 0);
    private static final TopicPartition DLQ = new TopicPartition("dlq", 0);
    private static final ProgressKeys PROGRESS = new ProgressKeys(new TopicPartition("progress", 0), PREFIX);
    private static final int MAX_REQUEST_BYTES = 1000;

    private final ScriptedProducer mock = new ScriptedProducer();
    private final Slots.Recording slot = new Slots.Recording(Slots.over(mock, HOLDER.id(), MAX_REQUEST_BYTES));
    private Optional<String> dlqTopic = Optional.of(DLQ.topic());

    TaskTransactionTest() {
        slot.init();
    }

    /** Carried over from {@code commitsTheBatchAndItsProgressInOneTransaction}, now for two partitions at once. */
    @Test
    void commitsEveryPartitionsRecordsAndProgressInOneTransaction() {
        Outcome outcome = transaction().run(List.of(part(P0, 0, 3), part(P1, 5, 7)));

        assertThat(outcome).isInstanceOf(Outcome.Committed.class);
        assertThat(slot.calls).containsOnlyOnce("begin", "commit").doesNotContain("abort");
        assertThat(values(mock.history())).containsExactly("v0", "v1", "v2", "v5", "v6");
        assertThat(mock.progressHistory()).extracting(r -> text(r.key()))
                .containsExactly("sink:orders-0", "sink:orders-1");
        ProgressRecord p1 = ProgressRecord.parse(mock.progressHistory().get(1).value());
        assertThat(p1.from()).isEqualTo(5);
        assertThat(p1.next()).isEqualTo(7);
        assertThat(p1.holder()).hasValue(HOLDER);
        assertThat(((Outcome.Committed) outcome).progress().get(P1)).isEqualTo(p1);
    }

    @Test
    void readiesTheTopicsOfEveryWriteOnceBeforeItBegins() {
        transaction().run(List.of(part(P0, 0, 3), part(P1, 5, 7)));

        assertThat(slot.prepared).containsExactly("[copy.orders] after [init]");
    }

    @Test
    void anInterruptWhileReadyingTheTopicsIsTransientAndBeginsNothing() {
        slot.onPrepare = () -> {
            throw new InterruptException("stopping");
        };

        Outcome outcome = transaction().run(List.of(part(P0, 0, 3)));

        assertThat(Thread.interrupted()).as("the interrupt is kept for the worker").isTrue();
        assertThat(outcome).as("not Unknown: nothing was begun, the slot need not be initialised again")
                .isInstanceOf(Outcome.Transient.class);
        assertThat(slot.calls).containsExactly("init");
    }

    @Test
    void writesEachPartitionsLinesFromTheOffsetsItsRecordsWereAcknowledgedAt() {
        transaction().run(List.of(part(P0, 0, 2), part(P1, 5, 6)));
        transaction().run(List.of(part(P1, 6, 8)));

        assertThat(ProgressRecord.parse(mock.progressHistory().get(1).value()).written())
                .isEqualTo(Map.of(TARGET, new Written(2, 3, 5)));
        assertThat(ProgressRecord.parse(mock.progressHistory().get(2).value()).written())
                .as("copy.orders-0 held offsets 0 to 2 before; p1's second transaction wrote 3 and 4")
                .isEqualTo(Map.of(TARGET, new Written(3, 5, 6)));
    }

    @Test
    void namesInEachLineTheIdItsTopicHadAtTheTransactionsFirstSendThereNotALaterOne() {
        Uuid before = Uuid.randomUuid();
        Uuid after = Uuid.randomUuid(); // the topic deleted and created again while the transaction was open
        AtomicReference<Uuid> known = new AtomicReference<>(before);
        TaskTransaction transaction = new TaskTransaction(slot, HOLDER.id(), source -> HOLDER, PROGRESS, this::letter,
                Duration.ofSeconds(30), TaskTransaction.Breaker.NONE, topic -> Optional.of(known.get()));

        TaskTransaction.Begun begun = transaction.begin(Set.of(TARGET.topic()));
        begun.send(P0, part(P0, 0, 2).writes()); // sent ahead by one put
        known.set(after);
        begun.complete(List.of(part(P0, 0, 4))); // the rest, and the commit, at the trigger

        assertThat(ProgressRecord.parse(mock.progressHistory().get(0).value()).written())
                .as("a line never names an id its records may have come after: at worst the older one, read as gone")
                .isEqualTo(Map.of(TARGET, new Written(0, 4, 0, Optional.of(before))));
    }

    @Test
    void sendsTheProgressRecordsOnlyOnceEveryRecordIsAcknowledged() throws Exception {
        MockProducer<byte[], byte[]> manual = new MockProducer<>(false, null, new ByteArraySerializer(),
                new ByteArraySerializer());
        Slots.Recording manualSlot = new Slots.Recording(Slots.over(manual, HOLDER.id(), MAX_REQUEST_BYTES));
        manualSlot.init();
        TaskTransaction transaction = new TaskTransaction(manualSlot, HOLDER.id(), source -> HOLDER, PROGRESS, this::letter,
                Duration.ofSeconds(30));

        CompletableFuture<Outcome> outcome = CompletableFuture.supplyAsync(() -> transaction.run(List.of(
                part(P0, 0, 2))));
        awaitSends(manualSlot, 2);
        assertThat(manualSlot.calls).as("no progress record while sends are unanswered")
                .containsExactly("init", "begin", "send copy.orders", "send copy.orders");
        manual.completeNext();
        manual.completeNext();

        assertThat(outcome.get(30, TimeUnit.SECONDS)).isInstanceOf(Outcome.Committed.class);
        assertThat(manualSlot.earlierSendsDoneAtProgress).containsExactly(true);
    }

    @Test
    void carriesTheLinesOfPartitionsItDidNotWriteAndReplacesThoseItWrote() {
        TopicPartition elsewhere = new TopicPartition("dlq", 2);
        ProgressRecord carrying = progress(0, 2).withOwnership(HOLDER, Map.of(elsewhere, new Written(40, 41, 0),
                TARGET, new Written(10, 12, 0)));

        transaction().run(List.of(new Part(P0, writes(0, 2), carrying)));

        assertThat(ProgressRecord.parse(mock.progressHistory().get(0).value()).written())
                .isEqualTo(Map.of(elsewhere, new Written(40, 41, 0), TARGET, new Written(0, 2, 0)));
    }

    /** Carried over from {@code movesTheProgressAloneOnToAPositionPastItOnlyWhenNothingWaits}. */
    @Test
    void commitsAProgressOnlyTransactionKeepingItsLines() {
        ProgressRecord alone = new ProgressRecord(3, 9, PROGRESS_TOPIC_ID, Optional.empty(), Map.of(),
                Optional.empty()).withOwnership(HOLDER, Map.of(TARGET, new Written(0, 3, 3)));

        Outcome outcome = transaction().run(List.of(new Part(P0, List.of(), alone)));

        assertThat(outcome).isInstanceOf(Outcome.Committed.class);
        assertThat(mock.history()).isEmpty();
        assertThat(ProgressRecord.parse(mock.progressHistory().get(0).value())).isEqualTo(alone);
    }

    @Test
    void touchesNoProducerWhenNoPartitionWaits() {
        assertThat(transaction().run(List.of())).isEqualTo(new Outcome.Committed(Map.of(), List.of()));
        assertThat(slot.calls).containsExactly("init");
    }

    /** Carried over from {@code isolatesTheRecordTheBrokerRejectsAndDeadLettersItBetweenTheOthers}, its first step. */
    @Test
    void answersTheRecordTheBrokerRejectedAfterAbortingAndSendsNoProgress() {
        mock.broker = r -> "v6".equals(text(r.value())) ? new InvalidRecordException("refused") : null;

        Outcome outcome = transaction().run(List.of(part(P0, 0, 3), part(P1, 5, 8)));

        assertThat(outcome).isInstanceOfSatisfying(Outcome.Rejected.class, rejected -> {
            assertThat(rejected.source()).isEqualTo(P1);
            assertThat(rejected.offset()).isEqualTo(6);
        });
        assertThat(slot.calls).doesNotContain("send progress", "commit").endsWith("abort");
        assertThat(mock.history()).isEmpty();
    }

    @Test
    void findsTheRejectedRecordThoughRecordsSentBeforeItFailedAsCollateral() {
        mock.broker = r -> switch (text(r.value())) {
            case "v1" -> new KafkaException("Failed to append record because it was part of a batch which had one"
                    + " more more invalid records");
            case "v2" -> new InvalidRecordException("refused");
            default -> null;
        };

        assertThat(transaction().run(List.of(part(P0, 0, 3)))).isInstanceOfSatisfying(Outcome.Rejected.class,
                rejected -> assertThat(rejected.offset()).isEqualTo(2));
    }

    @Test
    void deadLettersARecordTheUpFrontChecksLeaveOutInTheSameTransaction() {
        SinkRecord large = sinkRecord("orders", 0, 1, "k1", new byte[2 * MAX_REQUEST_BYTES], null);
        List<Write> writes = List.of(write(records("orders", 0, 0, 1).get(0)), write(large),
                write(records("orders", 0, 2, 3).get(0)));

        Outcome outcome = transaction().run(List.of(new Part(P0, writes, progress(0, 3))));

        assertThat(outcome).isInstanceOfSatisfying(Outcome.Committed.class, committed -> {
            assertThat(committed.deadLettered()).singleElement().satisfies(poison -> {
                assertThat(poison.offset()).isEqualTo(1);
                assertThat(poison.cause()).isInstanceOf(RecordTooLargeException.class);
            });
            assertThat(committed.progress().get(P0).written()).containsEntry(DLQ, new Written(0, 1, 0))
                    .containsEntry(TARGET, new Written(0, 2, 0));
        });
        assertThat(mock.history()).extracting(ProducerRecord::topic).containsExactly("copy.orders", "dlq",
                "copy.orders");
    }

    @Test
    void writesAgainInsteadOfDeadLetteringARecordLeftOutForATransientReason() {
        slot.script = r -> "v1".equals(text(r.value()))
                ? Optional.of(new Sent.Skipped(new TimeoutException("metadata not available in time")))
                : Optional.empty();

        assertThat(transaction().run(List.of(part(P0, 0, 3)))).isInstanceOf(Outcome.Transient.class);
        assertThat(slot.calls).doesNotContain("send dlq").endsWith("abort");
    }

    @Test
    void failsNamingTheRecordAndTheSettingWhenNoDeadLetterTopicTakesAPoison() {
        dlqTopic = Optional.empty();
        SinkRecord large = sinkRecord("orders", 0, 1, "k1", new byte[2 * MAX_REQUEST_BYTES], null);

        Outcome outcome = transaction().run(List.of(new Part(P0, List.of(write(large)), progress(1, 2))));

        assertThat(outcome).isInstanceOfSatisfying(Outcome.Fatal.class, fatal -> assertThat(fatal.cause())
                .isInstanceOf(WriterErrors.PoisonInStrictMode.class).hasMessageContaining("orders-0@1")
                .hasMessageContaining("send.errors.tolerance"));
        assertThat(slot.calls).endsWith("abort");
    }

    @Test
    void failsWhenTheDeadLetterItselfIsRefused() {
        mock.broker = r -> r.topic().equals("dlq") ? new RecordTooLargeException("too large") : null;
        SinkRecord large = sinkRecord("orders", 0, 1, "k1", new byte[2 * MAX_REQUEST_BYTES], null);

        Outcome outcome = transaction().run(List.of(new Part(P0, List.of(write(large)), progress(1, 2))));

        assertThat(outcome).isInstanceOfSatisfying(Outcome.Fatal.class, fatal -> assertThat(fatal.cause())
                .isInstanceOf(WriterErrors.DeadLetterFailed.class).hasMessageContaining("orders-0@1"));
    }

    /** Carried over from {@code reportsFencingWithoutAbortingForTheTaskToReestablishThePartition}. */
    @Test
    void answersFencedWithoutAborting() {
        mock.commitFailures.add(new ProducerFencedException("a newer producer"));

        assertThat(transaction().run(List.of(part(P0, 0, 3), part(P1, 0, 1)))).isInstanceOf(Outcome.Fenced.class);
        assertThat(mock.aborts).isZero();
    }

    @Test
    void answersFencedWhenTheProducerRefusesToBeginAfterAFence() {
        mock.beginTransactionException = new ProducerFencedException("fenced since the last transaction");

        assertThat(transaction().run(List.of(part(P0, 0, 3)))).isInstanceOf(Outcome.Fenced.class);
        assertThat(slot.calls).containsExactly("init", "begin");
    }

    /** Carried over from {@code abortsAndWritesTheBatchAgainAfterATransientCommitFailure}: the caller writes again. */
    @Test
    void abortsAndAnswersTransientAfterATransientCommitFailure() {
        mock.commitFailures.add(new KafkaException(new NotEnoughReplicasException("two of three")));

        assertThat(transaction().run(List.of(part(P0, 0, 3)))).isInstanceOf(Outcome.Transient.class);
        assertThat(mock.aborts).isEqualTo(1);
        assertThat(mock.history()).isEmpty();
    }

    @Test
    void answersUnknownWithoutAbortingWhenTheCommitsAnswerIsLost() {
        mock.commitFailures.add(new TimeoutException("no answer from the coordinator"));

        assertThat(transaction().run(List.of(part(P0, 0, 3)))).isInstanceOf(Outcome.Unknown.class);
        assertThat(mock.aborts).isZero();
    }

    /** Carried over from {@code stopsNamingTheRecordOnAnAuthorizationErrorAfterAbortingWithoutRetrying}. */
    @Test
    void stopsNamingTheRecordOnAnAuthorizationErrorAfterAborting() {
        mock.broker = r -> "v1".equals(text(r.value())) ? new TopicAuthorizationException("copy.orders") : null;

        Outcome outcome = transaction().run(List.of(part(P0, 0, 3)));

        assertThat(outcome).isInstanceOfSatisfying(Outcome.Fatal.class, fatal -> assertThat(fatal.cause())
                .isInstanceOf(WriterErrors.FatalWrite.class).hasMessageContaining("orders-0@1")
                .hasMessageContaining("ACLs"));
        assertThat(mock.aborts).isEqualTo(1);
    }

    /** Carried over from {@code failsNamingTheProgressTopicWhenItsProgressRecordIsRefusedAndCommitsNothing}. */
    @Test
    void failsNamingTheProgressTopicWhenAProgressRecordIsRefused() {
        mock.broker = r -> r.topic().equals("progress") ? new TopicAuthorizationException("progress") : null;

        Outcome outcome = transaction().run(List.of(part(P0, 0, 3)));

        assertThat(outcome).isInstanceOfSatisfying(Outcome.Fatal.class, fatal -> assertThat(fatal.cause())
                .hasMessageStartingWith("The progress of orders-0 cannot be sent to the progress topic progress")
                .hasMessageContaining("WRITE and DESCRIBE on topic progress"));
        assertThat(mock.history()).isEmpty();
    }

    @Test
    void answersUnknownWithTheAbortsFailureAttachedWhenTheAbortFails() {
        mock.broker = r -> "v1".equals(text(r.value())) ? new InvalidRecordException("refused") : null;
        mock.abortFailures.add(new TimeoutException("abort not answered"));

        Outcome outcome = transaction().run(List.of(part(P0, 0, 3)));

        assertThat(outcome).isInstanceOfSatisfying(Outcome.Unknown.class, unknown -> assertThat(unknown.cause()
                .getSuppressed()).singleElement().isInstanceOf(TimeoutException.class));
    }

    private TaskTransaction transaction() {
        return new TaskTransaction(slot, HOLDER.id(), source -> HOLDER, PROGRESS, this::letter, Duration.ofSeconds(30));
    }

    private Optional<ProducerRecord<byte[], byte[]>> letter(SinkRecord record, ProducerRecord<byte[], byte[]> refused,
                                                            Throwable error) {
        return dlqTopic.map(topic -> new ProducerRecord<>(topic, DLQ.partition(), null, bytes("letter of "
                + record.kafkaOffset())));
    }

    private static Part part(TopicPartition source, long from, long next) {
        return new Part(source, writes(source, from, next), progress(from, next));
    }

    private static List<Write> writes(long from, long next) {
        return writes(P0, from, next);
    }

    private static List<Write> writes(TopicPartition source, long from, long next) {
        List<Write> writes = new ArrayList<>();
        records(source.topic(), source.partition(), from, next).forEach(r -> writes.add(write(r)));
        return writes;
    }

    private static Write write(SinkRecord record) {
        return new Write(record, new ProducerRecord<>(TARGET.topic(), TARGET.partition(), (byte[]) record.key(),
                (byte[]) record.value()), false);
    }

    private static ProgressRecord progress(long from, long next) {
        return new ProgressRecord(from, next, PROGRESS_TOPIC_ID, Optional.empty(), Map.of(), Optional.empty());
    }

    private static List<String> values(List<ProducerRecord<byte[], byte[]>> records) {
        return records.stream().map(r -> text(r.value())).toList();
    }

    private static void awaitSends(Slots.Recording slot, int sends) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (slot.calls.stream().filter(c -> c.startsWith("send")).count() < sends) {
            assertThat(System.nanoTime()).as("the transaction sent its records within 30 s").isLessThan(deadline);
            Thread.onSpinWait();
        }
    }
}
