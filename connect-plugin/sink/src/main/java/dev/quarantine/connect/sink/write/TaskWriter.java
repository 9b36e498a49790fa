package dev.quarantine.connect.sink.write;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import java.util.function.Supplier;

import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.sink.SinkRecord;

import dev.quarantine.connect.sink.ownership.Caused;
import dev.quarantine.connect.sink.progress.ProgressRecord;
import dev.quarantine.connect.sink.write.IsolationPlan.Position;
import dev.quarantine.connect.sink.write.IsolationPlan.Range;
import dev.quarantine.connect.sink.write.IsolationPlan.Step;
import dev.quarantine.connect.sink.write.TaskTransaction.Outcome;
import dev.quarantine.connect.sink.write.TaskTransaction.Part;
import dev.quarantine.connect.sink.write.TransactionParts.StepParts;

/**
 * The write path of one slot (docs/design/sink-ownership.md 2.6): the waiting records and the committed progress of
 * each source partition the slot holds OWNED, written at a commit trigger in one {@link TaskTransaction} spanning them
 * all, or, after a rejection, in the transactions {@link IsolationPlan} lays out. It answers how the trigger ended:
 * Committed (every waiting record written or dead-lettered, or, when an isolation reached the put's bound, what it
 * committed until then), or the Fenced, Unknown, Transient or Fatal outcome that
 * stopped it, the steps committed before it applied. The handler decides once; after Fenced or Unknown it
 * re-initialises the slot and tells this writer which partitions keep their records ({@link #reopen}). The slot's
 * producer is not this writer's: each trigger is handed the transaction over the slot's current producer, so the
 * waiting records outlive a re-initialisation.
 */
public final class TaskWriter {

    private final TransactionParts transactionParts;
    private final Tally tally;
    private final OwnAbortCheck ownAbort;
    private final Map<TopicPartition, PendingRecords> waiting = new LinkedHashMap<>();
    private final Map<TopicPartition, ProgressRecord> committed = new HashMap<>();
    /**
     * The isolation a write stopped at the put's bound, with the rejections it learnt: the next write goes on with it
     * (so every put moves an isolation on by at least one transaction); dropped when a partition's records change.
     */
    private Unfinished unfinished;
    /** Whether transactions begin ahead of the trigger ({@link #sendAhead}; {@code ConfigRules.sendsAhead}). */
    private final boolean sendsAhead;
    /** The transaction begun ahead of the trigger, if one is; written or abandoned at the next write. */
    private Ahead ahead;
    /** A record could not be converted ahead of the trigger: nothing more is sent ahead until the next write. */
    private boolean stoppedAhead;

    /**
     * A transaction begun ahead of the commit trigger and what it sent of each partition: the first waiting records;
     * {@code spoilt} once the waiting records of a partition it sent changed other than by records added after them
     * (it can then only be abandoned).
     */
    private static final class Ahead {
        final TaskTransaction.Begun begun;
        final Map<TopicPartition, TransactionParts.Sent> sent = new LinkedHashMap<>();
        boolean spoilt;

        Ahead(TaskTransaction.Begun begun) {
            this.begun = begun;
        }

        List<Part> parts() {
            List<Part> parts = new ArrayList<>();
            sent.forEach((source, writes) -> parts.add(new Part(source, writes.writes(), null)));
            return parts;
        }
    }

    private record Unfinished(IsolationPlan plan, Map<Position, Throwable> rejections) {
    }

    /**
     * {@code mapped}: the partition count of each target topic a source partition's records are mapped by, carried in
     * its progress records (issue 22 item 7).
     */
    TaskWriter(Function<SinkRecord, ProducerRecord<byte[], byte[]>> convert, TaskTransaction.Letters letters,
               Function<TopicPartition, Map<String, Integer>> mapped, Tally tally, AfterAbort afterAbort,
               boolean sendsAhead) {
        this.transactionParts = new TransactionParts(convert, letters, mapped);
        this.tally = tally;
        this.ownAbort = new OwnAbortCheck(afterAbort);
        this.sendsAhead = sendsAhead;
    }

    /** For tests: nothing counted. */
    TaskWriter(Function<SinkRecord, ProducerRecord<byte[], byte[]>> convert, TaskTransaction.Letters letters,
               Function<TopicPartition, Map<String, Integer>> mapped, boolean sendsAhead) {
        this(convert, letters, mapped, Tally.NONE, AfterAbort.TRUSTED, sendsAhead);
    }

    /**
     * Asked after a transaction of the slot's own ended in an abort, before the partitions it held are written again
     * (rule V (c), design 2.7.1): whether the commits behind their progress still read visible. An abort ends every
     * open range of the producer id on the partitions it wrote, a commit left open there by skipped markers with it.
     */
    @FunctionalInterface
    public interface AfterAbort {
        /** For unit tests of the write path that do not stage skipped markers. */
        AfterAbort TRUSTED = progress -> true;

        boolean stillVisible(Map<TopicPartition, ProgressRecord> progress);
    }

    /** What the writer reports as its transactions end: the task's metrics and its dead-letter breaker. */
    public interface Tally {
        Tally NONE = new Tally() {
            @Override
            public Optional<ConnectException> committed(long latencyMs, int records,
                                                        List<TaskTransaction.Poison> atSend,
                                                        List<TaskTransaction.Poison> isolated) {
                return Optional.empty();
            }

            @Override
            public void aborted() {
            }
        };

        /**
         * A transaction committed with {@code records} written, {@code atSend} dead-lettered as the up-front checks
         * left them out (the breaker counted them before the commit) and {@code isolated} dead-lettered after the
         * broker rejected them; answers the task's failure when the isolated ones trip the breaker.
         */
        Optional<ConnectException> committed(long latencyMs, int records, List<TaskTransaction.Poison> atSend,
                                             List<TaskTransaction.Poison> isolated);

        void aborted();
    }

    /** {@code source} is OWNED by the slot, its committed progress {@code progress}: nothing of it waits. */
    public void open(TopicPartition source, ProgressRecord progress) {
        spoil(source);
        committed.put(source, progress);
        waiting.put(source, new PendingRecords());
        unfinished = null;
    }

    /**
     * After a re-initialisation (2.5, 2.6): {@code source} is still OWNED and its progress read is {@code progress};
     * its waiting records are kept when that equals the progress in memory (they are contiguous with it), else
     * dropped. Returns whether they were kept.
     */
    public boolean reopen(TopicPartition source, ProgressRecord progress) {
        boolean keep = progress.equals(committed.get(source));
        if (!keep) {
            open(source, progress);
        }
        return keep;
    }

    /** {@code source} is no longer written by the slot: its records and progress are forgotten. */
    public void close(TopicPartition source) {
        spoil(source);
        committed.remove(source);
        waiting.remove(source);
        unfinished = null;
    }

    /** Adds delivered records of OWNED partitions; records below a partition's committed progress are skipped. */
    public void add(TopicPartition source, List<SinkRecord> records, long nowMs) {
        PendingRecords pending = waiting.get(source);
        if (pending == null) {
            throw new IllegalStateException(source + " is not open in this slot");
        }
        pending.add(records, OptionalLong.of(committed.get(source).next()), nowMs);
    }

    /** Whether {@code source} is open in this writer (OWNED by the slot, its progress known). */
    public boolean holds(TopicPartition source) {
        return waiting.containsKey(source);
    }

    /** The records of {@code source} waiting for the next trigger; empty when it is not open. */
    public PendingRecords waiting(TopicPartition source) {
        return waiting.getOrDefault(source, new PendingRecords());
    }

    /** The open partitions with records waiting. */
    public List<TopicPartition> withRecordsWaiting() {
        List<TopicPartition> partitions = new ArrayList<>();
        waiting.forEach((source, pending) -> {
            if (pending.count() > 0) {
                partitions.add(source);
            }
        });
        return partitions;
    }

    /** The records waiting in every open partition. */
    public List<PendingRecords> waiting() {
        return List.copyOf(waiting.values());
    }

    /** Drops what waits in {@code source}: it is sought back to its committed progress. */
    public void dropWaiting(TopicPartition source) {
        PendingRecords pending = waiting.get(source);
        if (pending != null) {
            pending.clear();
        }
        spoil(source);
        unfinished = null;
    }

    /** What waits in {@code source} changed other than by an add: a transaction begun ahead that sent it is spoilt. */
    private void spoil(TopicPartition source) {
        if (ahead != null && ahead.sent.containsKey(source)) {
            ahead.spoilt = true;
        }
    }

    /**
     * Sends the waiting records not sent yet in a transaction begun ahead of the commit trigger (begun now when none
     * is), so the target takes them while the worker polls for more; the write at the trigger sends what was added
     * since, waits for the acknowledgements and commits ({@link #write}). Sends nothing when transactions do not
     * begin ahead, an isolation is unfinished, a transaction begun ahead ended or is spoilt (settled first: {@link
     * #abandonAhead}), or a waiting partition has a redo pending (its sends depend on what the lost commit wrote).
     * A record that cannot be converted stops the sends until the next write, which meets it again and decides.
     */
    public void sendAhead(Supplier<TaskTransaction> transaction) {
        if (!sendsAhead || stoppedAhead || unfinished != null
                || ahead != null && (ahead.spoilt || ahead.begun.ended().isPresent())) {
            return;
        }
        Map<TopicPartition, TransactionParts.Sent> more = new LinkedHashMap<>();
        for (Map.Entry<TopicPartition, PendingRecords> entry : waiting.entrySet()) {
            TopicPartition source = entry.getKey();
            int sent = ahead == null ? 0 : ahead.sent.getOrDefault(source, TransactionParts.Sent.NONE).writes().size();
            if (entry.getValue().count() == sent) {
                continue;
            }
            if (committed.get(source).redo().isPresent()) {
                return;
            }
            try {
                more.put(source, transactionParts.ahead(source, entry.getValue().from(sent)));
            } catch (RuntimeException e) {
                stoppedAhead = true; // converting again at every put would fail again: the write decides
                return;
            }
        }
        if (more.isEmpty()) {
            return;
        }
        if (ahead == null) {
            ahead = new Ahead(transaction.get().begin(TaskTransaction.topics(more.values().stream()
                    .flatMap(sent -> sent.writes().stream()))));
        }
        for (Map.Entry<TopicPartition, TransactionParts.Sent> entry : more.entrySet()) {
            ahead.sent.merge(entry.getKey(), entry.getValue(), TransactionParts.Sent::and);
            if (ahead.begun.send(entry.getKey(), entry.getValue().writes()).isPresent()) {
                return;
            }
        }
    }

    /** Whether a transaction begun ahead of the trigger is open or ended unsettled (see {@link #abandonAhead}). */
    public boolean hasAhead() {
        return ahead != null;
    }

    /** Whether the transaction begun ahead is spoilt: what it sent changed, it can only be abandoned. */
    public boolean aheadSpoilt() {
        return ahead != null && ahead.spoilt;
    }

    /**
     * Whether the transaction begun ahead ended before its trigger (a send failed): the write is due now, and decides
     * as it would have at the trigger (a rejected record is isolated, a fence re-initialises the slot).
     */
    public boolean aheadEnded() {
        return ahead != null && ahead.begun.ended().isPresent();
    }

    /**
     * Ends the transaction begun ahead of the trigger without committing it, before the slot's producer does anything
     * else (a claim, an intent, a move of the progress) or what it sent changed: aborted, then rule V's check after an
     * own abort ({@link OwnAbortCheck}). Empty when nothing was begun, or once it is aborted and the slot's commits
     * still read visible; else the outcome the slot decides on (Fenced or Unknown; Fatal when a send ahead met a
     * failure for good). Its records keep waiting.
     */
    public Optional<Outcome> abandonAhead() {
        Ahead abandoned = ahead;
        ahead = null;
        if (abandoned == null) {
            return Optional.empty();
        }
        Outcome ended = abandoned.begun.ended().orElseGet(() -> abandoned.begun.abandon(new ConnectException(
                "The transaction begun ahead of the commit trigger was abandoned")));
        Optional<Outcome> lost = ended instanceof Outcome.Fenced || ended instanceof Outcome.Unknown ? Optional.empty()
                : ownAbort.after(abandoned.parts(), ((Caused) ended).cause(), committed);
        if (lost.isPresent() || ended instanceof Outcome.Transient || ended instanceof Outcome.Rejected) {
            return lost;
        }
        return Optional.of(ended); // Fenced, Unknown, or Fatal (aborted, the rule V look made)
    }

    /** The committed progress of {@code source}, if it is open (no copy: asked per partition of a put). */
    public Optional<ProgressRecord> committed(TopicPartition source) {
        return Optional.ofNullable(committed.get(source));
    }

    /** The committed progress of each open partition ({@code preCommit} reports its {@code next}). */
    public Map<TopicPartition, ProgressRecord> committed() {
        return Map.copyOf(committed);
    }

    /**
     * Writes every waiting record with {@code transaction}, in one transaction unless the broker rejects one. After a
     * rejection the isolation's transactions ({@link IsolationPlan}) go on only while {@code mayGoOn} says a put may
     * start another (within {@code consumer.override.max.poll.interval.ms}: {@link
     * dev.quarantine.connect.sink.config.ConfigRules#writeBound}); then the write answers Committed with what it
     * committed, and the next write goes on with the isolation where it stopped (records added since wait for the one
     * after). The first transaction of a write always starts.
     */
    public Outcome write(TaskTransaction transaction, long nowMs, BooleanSupplier mayGoOn) {
        stoppedAhead = false;
        if (ahead != null && (ahead.spoilt || ahead.begun.ended().isPresent()
                && !(ahead.begun.ended().get() instanceof Outcome.Rejected))) {
            Optional<Outcome> settled = abandonAhead(); // what it sent changed, or it failed other than by a rejection
            if (settled.isPresent()) {
                return settled.get();
            }
        }
        Ahead started = ahead;
        IsolationPlan plan;
        Map<Position, Throwable> rejections;
        if (unfinished != null) {
            plan = unfinished.plan();
            rejections = unfinished.rejections();
            unfinished = null;
        } else {
            Map<TopicPartition, Range> ranges = new LinkedHashMap<>();
            waiting.forEach((source, pending) -> {
                List<SinkRecord> records = pending.records();
                if (!records.isEmpty()) {
                    ranges.put(source, new Range(records.get(0).originalKafkaOffset(),
                            records.get(records.size() - 1).originalKafkaOffset() + 1));
                }
            });
            plan = new IsolationPlan(ranges, Set.of());
            rejections = new HashMap<>();
        }
        Map<TopicPartition, ProgressRecord> written = new LinkedHashMap<>();
        List<TaskTransaction.Poison> deadLettered = new ArrayList<>();
        boolean first = true;
        for (Optional<Step> step = plan.next(); step.isPresent(); step = plan.next()) {
            if (!first && !mayGoOn.getAsBoolean()) {
                unfinished = new Unfinished(plan, rejections);
                return new Outcome.Committed(written, deadLettered);
            }
            // the first step is the transaction begun ahead, if one was: its sends are not converted again
            TaskTransaction.Begun begun = first && started != null ? started.begun : null;
            first = false;
            StepParts stepParts;
            try {
                stepParts = begun == null ? transactionParts.of(step.get(), rejections, committed, waiting)
                        : transactionParts.of(step.get(), rejections, committed, waiting, started.sent);
            } catch (WriterErrors.PoisonInStrictMode e) {
                abandonAhead();
                return new Outcome.Fatal(e);
            } catch (RuntimeException e) {
                // a converter failed (transiently, or for good): what was begun ahead is not left open meanwhile
                Optional<Outcome> abandoned = abandonAhead();
                if (abandoned.isPresent()) {
                    e.addSuppressed(((Caused) abandoned.get()).cause());
                    return abandoned.get();
                }
                throw e;
            }
            ahead = null;
            List<Part> parts = stepParts.parts();
            long began = System.nanoTime();
            Outcome outcome;
            if (begun == null) {
                outcome = transaction.run(parts);
            } else {
                outcome = begun.ended().orElseGet(() -> begun.complete(parts)); // ended: Rejected, aborted
            }
            if (outcome instanceof Outcome.Committed done) {
                plan.committed();
                committed(done, nowMs);
                written.putAll(done.progress());
                List<TaskTransaction.Poison> isolated = stepParts.isolated();
                deadLettered.addAll(done.deadLettered());
                deadLettered.addAll(isolated);
                Optional<ConnectException> tripped = tally.committed((System.nanoTime() - began) / 1_000_000,
                        TransactionParts.records(parts) - done.deadLettered().size(), done.deadLettered(), isolated);
                if (tripped.isPresent()) {
                    return new Outcome.Fatal(tripped.get());
                }
            } else if (outcome instanceof Outcome.Rejected rejected) {
                tally.aborted();
                rejections.put(new Position(rejected.source(), rejected.offset()), rejected.cause());
                plan.rejected(rejected.source(), rejected.offset());
                Optional<Outcome> lost = ownAbort.after(parts, rejected.cause(), committed);
                if (lost.isPresent()) {
                    return lost.get();
                }
            } else if (outcome instanceof Outcome.Transient transientFailure) {
                return ownAbort.after(parts, transientFailure.cause(), committed).orElse(outcome);
            } else {
                return outcome;
            }
        }
        return new Outcome.Committed(written, deadLettered);
    }

    /**
     * After a claim, a re-initialisation or an own abort, rule V found commits lost: commits {@code intents}
     * (progress records of the source partitions, each back where its redo starts, with the redo) in one transaction
     * of the slot, without records (design 2.7.1 step 3).
     */
    public Outcome intents(TaskTransaction transaction, Map<TopicPartition, ProgressRecord> intents) {
        Optional<Outcome> abandoned = abandonAhead();
        if (abandoned.isPresent()) {
            return abandoned.get();
        }
        List<Part> parts = new ArrayList<>();
        intents.forEach((source, intent) -> parts.add(new Part(source, List.of(), intent)));
        return transaction.run(parts);
    }

    /**
     * At {@code preCommit}: moves the progress of each open partition with nothing waiting on to its position in
     * {@code positions} where that is past it (records that never reached the task: an SMT dropped them, or Connect's
     * own error handling took them), all in one transaction of the slot. The progress keeps its {@code from} and its
     * lines (a transaction of the progress alone writes no partition).
     */
    public Outcome move(TaskTransaction transaction, Map<TopicPartition, Long> positions) {
        Optional<Outcome> abandoned = abandonAhead();
        if (abandoned.isPresent()) {
            return abandoned.get();
        }
        Outcome outcome = transaction.run(TransactionParts.moved(positions, committed, waiting));
        if (outcome instanceof Outcome.Committed done) {
            committed.putAll(done.progress());
        }
        return outcome;
    }

    /** The partitions {@code done} committed: their progress moves on, their records below it stop waiting. */
    private void committed(Outcome.Committed done, long nowMs) {
        done.progress().forEach((source, progress) -> {
            committed.put(source, progress);
            PendingRecords pending = waiting.get(source);
            List<SinkRecord> rest = pending.records();
            pending.clear();
            pending.add(rest, OptionalLong.of(progress.next()), nowMs);
        });
    }
}
