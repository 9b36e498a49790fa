package dev.quarantine.connect.sink.write;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Future;
import java.util.function.Function;
import java.util.stream.Stream;

import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.errors.InterruptException;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.sink.SinkRecord;

import dev.quarantine.connect.sink.ownership.Caused;
import dev.quarantine.connect.sink.ownership.SlotProducer;
import dev.quarantine.connect.sink.ownership.SlotProducer.End;
import dev.quarantine.connect.sink.ownership.SlotProducer.Sent;
import dev.quarantine.connect.sink.progress.ProgressRecord;
import dev.quarantine.connect.sink.progress.ProgressRecord.Holder;
import dev.quarantine.connect.sink.progress.ProgressRecord.Written;
import dev.quarantine.txn.TxnSendOption;

/**
 * One transaction of a slot's producer for one commit trigger, spanning every source partition handed to it
 * (docs/design/sink-ownership.md 2.6): begin; each partition's records, and the dead letters of the records the
 * producer's up-front checks left out as poison (another reason, a timeout say, ends the transaction as that failure
 * does); a wait until every send is acknowledged (rule V of 2.7.1: each record's offset is then known, and a record the
 * broker refused is known before any progress record is sent); one progress record
 * per partition, written by the slot under its claim ({@link Holder}) with its {@code written} lines from the
 * acknowledged offsets; commit. It answers how it ended, and the caller decides once:
 *
 * <table>
 * <caption>Outcomes</caption>
 * <tr><th>outcome</th><th>when</th><th>the transaction</th></tr>
 * <tr><td>{@link Outcome.Committed}</td><td>committed: the progress per partition as committed, and the records
 *     dead-lettered at send</td><td>committed</td></tr>
 * <tr><td>{@link Outcome.Rejected}</td><td>the broker refused a record ({@link FailureAction} POISON) that the
 *     up-front checks passed: the first such, in the order handed in</td><td>aborted</td></tr>
 * <tr><td>{@link Outcome.Fenced}</td><td>the producer's epoch moved on (any send, the commit)</td><td>not aborted
 *     (the epoch is gone)</td></tr>
 * <tr><td>{@link Outcome.Unknown}</td><td>the commit's answer is unknown, an abort failed, or the producer refused
 *     to begin: the slot re-initialises (rule V's check (b) then decides)</td><td>unknown</td></tr>
 * <tr><td>{@link Outcome.Transient}</td><td>a transient failure, or collateral damage of another record</td><td>
 *     aborted</td></tr>
 * <tr><td>{@link Outcome.Fatal}</td><td>FATAL, a dead letter that cannot be written, poison without a dead-letter
 *     topic</td><td>aborted (a failed abort is attached as suppressed)</td></tr>
 * </table>
 *
 * <p>Which outcome each failure answers, and the abort before it, is {@link TransactionFailures}' decision.
 *
 * <p>The caller hands each partition's progress for the range it covers ({@code from}, {@code next}) with the lines
 * to carry over (2.7.1 rule V.1: the last line per partition written, those of partitions this transaction does not
 * write stay); this class replaces the lines of the partitions it wrote.
 */
public final class TaskTransaction {

    /** A record of a source partition in the transaction: its target record, or its dead letter. */
    record Write(SinkRecord record, ProducerRecord<byte[], byte[]> out, boolean deadLetter) {
        long offset() {
            return record.originalKafkaOffset();
        }
    }

    /** What one source partition puts in: its writes in offset order and its progress with the lines it carries. */
    record Part(TopicPartition source, List<Write> writes, ProgressRecord progress) {
        Part {
            writes = List.copyOf(writes);
        }
    }

    /** A record the up-front checks left out, dead-lettered in the transaction instead. */
    public record Poison(TopicPartition source, long offset, Throwable cause) {
    }

    /** The dead letter of a record the up-front checks left out; empty without a dead-letter topic (strict mode). */
    @FunctionalInterface
    interface Letters {
        Optional<ProducerRecord<byte[], byte[]>> of(SinkRecord record, ProducerRecord<byte[], byte[]> refused,
                                                    Throwable error);
    }

    /** How the transaction ended. */
    public sealed interface Outcome {
        record Committed(Map<TopicPartition, ProgressRecord> progress, List<Poison> deadLettered)
                implements Outcome {
        }

        record Rejected(TopicPartition source, long offset, Throwable cause) implements Outcome, Caused {
        }

        record Fenced(Throwable cause) implements Outcome, Caused {
        }

        record Unknown(Throwable cause) implements Outcome, Caused {
        }

        record Transient(Throwable cause) implements Outcome, Caused {
        }

        record Fatal(ConnectException cause) implements Outcome, Caused {
        }
    }

    private final SlotProducer producer;
    private final TransactionFailures failures;
    private final Function<TopicPartition, Holder> holders;
    private final ProgressKeys progress;
    private final Letters letters;
    private final Duration ackBound;
    private final Breaker breaker;
    private final Function<String, Optional<Uuid>> topicIds;

    /**
     * Asked before the commit with what the transaction wrote: the records written and the records the up-front
     * checks left out and dead-lettered; answers the task's failure when the dead letters trip the breaker (the
     * transaction is then aborted, so a broken target does not drain into the dead-letter topic).
     */
    @FunctionalInterface
    public interface Breaker {
        Breaker NONE = (written, deadLettered) -> Optional.empty();

        Optional<ConnectException> beforeCommit(int written, List<Poison> deadLettered);
    }

    /**
     * A transaction of {@code producer}, the slot {@code id}, whose progress records name the claim each partition is
     * held under ({@code holders}, rule W); {@code ackBound}: how long the wait for the
     * acknowledgements may take in all (the producer's {@code delivery.timeout.ms} bounds each send anyway).
     */
    TaskTransaction(SlotProducer producer, String id, Function<TopicPartition, Holder> holders, ProgressKeys progress,
                    Letters letters, Duration ackBound) {
        this(producer, id, holders, progress, letters, ackBound, Breaker.NONE, topic -> Optional.empty());
    }

    /** ... and {@code topicIds}: the id of each topic written as known now, for the written lines (rule V). */
    TaskTransaction(SlotProducer producer, String id, Function<TopicPartition, Holder> holders, ProgressKeys progress,
                    Letters letters, Duration ackBound, Breaker breaker, Function<String, Optional<Uuid>> topicIds) {
        this.breaker = breaker;
        this.topicIds = topicIds;
        this.producer = producer;
        this.failures = new TransactionFailures(producer, id, progress);
        this.holders = holders;
        this.progress = progress;
        this.letters = letters;
        this.ackBound = ackBound;
    }

    Outcome run(List<Part> parts) {
        if (parts.isEmpty()) {
            return new Outcome.Committed(Map.of(), List.of());
        }
        return begin(topics(parts.stream().flatMap(part -> part.writes().stream()))).complete(parts);
    }

    /**
     * Begins a transaction whose first sends go to {@code topics}: readied, then begun (no round trip). A begin that
     * failed is a {@link Begun} already ended ({@link Begun#ended}).
     */
    Begun begin(Set<String> topics) {
        try {
            producer.prepare(topics);
        } catch (InterruptException e) {
            return new Begun(new Outcome.Transient(e), topics); // nothing begun: the put is retried, the slot kept
        }
        try {
            producer.begin();
        } catch (RuntimeException e) {
            return new Begun(FailureAction.of(e) == FailureAction.FENCED ? new Outcome.Fenced(e)
                    : new Outcome.Unknown(e), topics);
        }
        return new Begun(null, topics);
    }

    /**
     * A transaction begun, whose records may be sent over several puts before its commit trigger
     * ({@link TaskWriter#sendAhead}): each source partition's records are sent once, in offset order; the first send
     * that ends it (as {@link #run} would answer) ends it for good.
     */
    final class Begun {
        private final Acks acks = new Acks();
        private final List<Poison> deadLettered = new ArrayList<>();
        /** Per source partition, the offset after the last record sent. */
        private final Map<TopicPartition, Long> sentTo = new HashMap<>();
        /** The topics readied for sends ({@link SlotProducer#prepare}). */
        private final Set<String> prepared;
        /** Each topic's id as known at the transaction's first send there, for the written lines. */
        private final Map<String, Optional<Uuid>> ids = new HashMap<>();
        private Outcome ended;

        private Begun(Outcome ended, Set<String> prepared) {
            this.ended = ended;
            this.prepared = new HashSet<>(prepared);
        }

        /** How the transaction ended before its commit: a failed begin or send. Empty while it is open. */
        Optional<Outcome> ended() {
            return Optional.ofNullable(ended);
        }

        /**
         * Sends {@code source}'s {@code writes} past those of it sent before; answers how the transaction ended when a
         * send ended it.
         */
        Optional<Outcome> send(TopicPartition source, List<Write> writes) {
            if (ended != null) {
                return Optional.of(ended);
            }
            long from = sentTo.getOrDefault(source, Long.MIN_VALUE);
            Set<String> unprepared = new HashSet<>();
            for (Write write : writes) {
                if (write.offset() >= from && !prepared.contains(write.out().topic())) {
                    unprepared.add(write.out().topic());
                }
            }
            if (!unprepared.isEmpty()) {
                try {
                    producer.prepare(unprepared);
                } catch (InterruptException e) {
                    ended = failures.abortThen(new Outcome.Transient(e));
                    return Optional.of(ended);
                }
                prepared.addAll(unprepared);
            }
            long next = from;
            for (Write write : writes) {
                if (write.offset() >= from) {
                    Optional<Outcome> failed = TaskTransaction.this.send(source, write, acks, deadLettered, ids);
                    if (failed.isPresent()) {
                        ended = failed.get();
                        return failed;
                    }
                    next = write.offset() + 1;
                }
            }
            sentTo.put(source, next);
            return Optional.empty();
        }

        /**
         * Sends what {@code parts} hold past what was sent of them, waits for every acknowledgement, sends each
         * part's progress and commits (the steps of this class's comment).
         */
        Outcome complete(List<Part> parts) {
            for (Part part : parts) {
                Optional<Outcome> failed = send(part.source(), part.writes());
                if (failed.isPresent()) {
                    return failed.get();
                }
            }
            try {
                producer.flush(); // rule V.2: every send answered before the progress records, not after linger.ms
            } catch (RuntimeException e) {
                return failures.abortThen(new Outcome.Transient(e)); // interrupted: nothing is known of the sends yet
            }
            Acks.Answer answer = acks.await(ackBound);
            if (answer.failure().isPresent()) {
                return failures.sendFailed(answer.failure().get().source(), answer.failure().get().write(),
                        answer.failure().get().cause());
            }
            int written = TransactionParts.records(parts) - deadLettered.size();
            Optional<ConnectException> tripped = breaker.beforeCommit(written, deadLettered);
            if (tripped.isPresent()) {
                return failures.abortThen(new Outcome.Fatal(tripped.get()));
            }
            Map<TopicPartition, ProgressRecord> committed = new LinkedHashMap<>();
            Map<TopicPartition, Future<RecordMetadata>> progressSends = new LinkedHashMap<>();
            for (Part part : parts) {
                ProgressRecord record = withLines(part, answer.written(), ids);
                committed.put(part.source(), record);
                Sent sent = producer.send(progress.record(record, part.source()), TxnSendOption.NONE);
                if (!(sent instanceof Sent.Accepted accepted)) {
                    return failures.progressNotSent(part.source(), SlotAnswers.cause(sent));
                }
                progressSends.put(part.source(), accepted.metadata());
            }
            End end = producer.commit();
            if (end instanceof End.Done) {
                return new Outcome.Committed(committed, deadLettered);
            }
            return failures.commitNotDone(end, parts.size(), progressSends);
        }

        /**
         * Aborts the transaction, still open, before its commit trigger: Transient({@code why}) once aborted, else
         * Fenced or Unknown (the abort failed).
         */
        Outcome abandon(Throwable why) {
            if (ended != null) {
                throw new IllegalStateException("only a transaction still open is abandoned: " + ended);
            }
            ended = failures.abortThen(new Outcome.Transient(why));
            return ended;
        }
    }

    /** The topics {@code writes} go to. */
    static Set<String> topics(Stream<Write> writes) {
        Set<String> topics = new HashSet<>();
        writes.forEach(write -> topics.add(write.out().topic()));
        return topics;
    }

    private Optional<Outcome> send(TopicPartition source, Write write, Acks acks, List<Poison> deadLettered,
                                   Map<String, Optional<Uuid>> ids) {
        ids.computeIfAbsent(write.out().topic(), topicIds);
        Sent sent = producer.send(write.out(), TxnSendOption.IGNORE_SEND_ERRORS);
        if (sent instanceof Sent.Accepted accepted) {
            acks.add(source, write, accepted.metadata());
            return Optional.empty();
        }
        if (sent instanceof Sent.Failed failed) {
            // a record the broker refused earlier in this transaction puts the producer in an error state that refuses
            // every later send: that record's failure is the transaction's, this one is collateral
            Optional<Acks.Failure> earlier = acks.await(ackBound).failure();
            if (earlier.isPresent()) {
                return Optional.of(failures.sendFailed(earlier.get().source(), earlier.get().write(),
                        earlier.get().cause()));
            }
            return Optional.of(failures.sendFailed(source, write, failed.cause()));
        }
        Throwable leftOut = SlotAnswers.cause(sent);
        if (write.deadLetter() || FailureAction.of(leftOut) != FailureAction.POISON) {
            // not the record's fault: a timeout is not poison
            return Optional.of(failures.sendFailed(source, write, leftOut));
        }
        Optional<ProducerRecord<byte[], byte[]>> letter;
        try {
            letter = letters.of(write.record(), write.out(), leftOut);
        } catch (ConnectException e) {
            // the dead letter cannot be built (too large)
            return Optional.of(failures.abortThen(new Outcome.Fatal(e)));
        }
        if (letter.isEmpty()) {
            return Optional.of(failures.abortThen(new Outcome.Fatal(new WriterErrors.PoisonInStrictMode(write.record(),
                    write.out().topic(), leftOut))));
        }
        deadLettered.add(new Poison(source, write.offset(), leftOut));
        return send(source, new Write(write.record(), letter.get(), true), acks, deadLettered, ids);
    }

    /**
     * The part's progress as this transaction commits it: by the slot, with the lines of what it wrote, each naming its
     * topic's id as known at the transaction's first send there ({@code ids}).
     */
    private ProgressRecord withLines(Part part, Map<TopicPartition, Map<TopicPartition, Acks.Range>> written,
                                     Map<String, Optional<Uuid>> ids) {
        Map<TopicPartition, Written> lines = new LinkedHashMap<>(part.progress().written());
        written.getOrDefault(part.source(), Map.of()).forEach((tp, range) ->
                lines.put(tp, new Written(range.first(), range.end(), part.progress().from(),
                        ids.getOrDefault(tp.topic(), Optional.empty()))));
        return part.progress().withOwnership(holders.apply(part.source()), lines);
    }
}
