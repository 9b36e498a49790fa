package dev.quarantine.connect.sink;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.errors.RetriableException;
import org.apache.kafka.connect.sink.SinkRecord;
import org.apache.kafka.connect.sink.SinkTaskContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.quarantine.connect.sink.cluster.TargetTopics;
import dev.quarantine.connect.sink.config.ConfigRules;
import dev.quarantine.connect.sink.config.TransactionalSinkConfig;
import dev.quarantine.connect.sink.ownership.Ownership;
import dev.quarantine.connect.sink.ownership.StageBudget;
import dev.quarantine.connect.sink.progress.ProgressStore;
import dev.quarantine.connect.sink.write.CommitTrigger;
import dev.quarantine.connect.sink.write.Coordinates;
import dev.quarantine.connect.sink.write.PendingRecords;
import dev.quarantine.connect.sink.write.TaskTransaction.Outcome;
import dev.quarantine.connect.sink.write.WriterFactory;

/**
 * What a {@link TransactionalKafkaSinkTask} does, without Connect (docs/design/sink-ownership.md 2.3-2.6): the task's
 * slots ({@link TaskSlot}, one transactional producer each) own the assigned source partitions through
 * {@link Ownership} and write them through their {@link dev.quarantine.connect.sink.write.TaskWriter}, one transaction
 * per slot per commit trigger spanning every partition it owns, its dead letters and its progress.
 *
 * <p>{@code open} makes no round trip: it pauses the partitions and asks for a prompt put, whose stages claim, fence
 * and read them ({@link Ownership#advance}). A partition that becomes OWNED is sought to its committed progress and
 * resumed ({@link Opened}); one found LOST is paused and its records dropped. Records of partitions that are not OWNED
 * are not taken. A batch that starts past where the task last sought its partition is refused and the partition
 * sought back ({@link SeekingContext#gapAfterSeek}).
 */
final class SinkTaskHandler implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(SinkTaskHandler.class);
    /** Within Connect's default task.shutdown.graceful.timeout.ms (5 s), for all producers. */
    static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(4);
    private static final long RETRY_BACKOFF_MS = 1_000;
    /**
     * The poll timeout that asks the worker for a prompt put: 1 ms, not 0, which {@code WorkerSinkTask.poll} ignores
     * (it takes a task's timeout only when positive, else polls until its next offset flush).
     */
    static final long PROMPT_PUT_MS = 1;

    private final SeekingContext context;
    private final List<TaskSlot> slots;
    private final StageBudget budget;
    private final Opened opened;
    private final ProgressStore progress;
    private final TargetTopics targetTopics;
    private final WriterFactory writers;
    private final TransientFailures transients;
    private final CommitTrigger trigger;
    /** How long into a put an isolation may start another transaction ({@link ConfigRules#writeBound}). */
    private final Duration writeBound;
    private final Clock clock;
    private final AutoCloseable clients;
    /** A write failed for good: its waiting records were dropped, which the worker counts as delivered. */
    private boolean failed;

    SinkTaskHandler(SinkTaskContext context, String prefix, List<TaskSlot> slots, StageBudget budget,
                    ProgressStore progress,
                    TargetTopics targetTopics, WriterFactory writers, TransientFailures transients,
                    CommitTrigger trigger, Duration writeBound, Clock clock, AutoCloseable clients) {
        this.context = new SeekingContext(context);
        this.slots = List.copyOf(slots);
        this.budget = budget;
        this.progress = progress;
        this.opened = new Opened(this.context, progress, prefix, writers.metrics(), transients.another());
        this.targetTopics = targetTopics;
        this.writers = writers;
        this.transients = transients;
        this.trigger = trigger;
        this.writeBound = writeBound;
        this.clock = clock;
        this.clients = clients;
    }

    /**
     * NEW, no round trip (Connect fails the task for good on an exception from open). Not paused: {@code open} runs
     * inside the worker's poll, which a pause would keep waiting until its next offset flush (no timeout the task asks
     * for shortens a poll under way); their first records end that poll, and its put claims them, their records taken
     * once OWNED or dropped and sought again ({@link Opened}). A pause left from an earlier assignment (a LOST
     * partition given back) is lifted for the same reason.
     */
    void open(Collection<TopicPartition> partitions) {
        context.forget(partitions);
        bySlot(partitions).forEach((slot, mine) -> slot.ownership.open(mine));
        context.resume(partitions.toArray(TopicPartition[]::new));
        context.timeout(PROMPT_PUT_MS);
    }

    /** Forgets the partitions: their waiting records are dropped, whoever writes them next reads their progress. */
    void close(Collection<TopicPartition> partitions) {
        context.forget(partitions);
        bySlot(partitions).forEach((slot, mine) -> {
            slot.ownership.close(mine);
            mine.forEach(partition -> opened.closed(slot.writer, partition));
        });
        countOwned();
    }

    /** The {@code partitions-owned} gauge: the partitions whose records the task takes now. */
    private void countOwned() {
        writers.metrics().owned((int) slots.stream().mapToLong(slot -> slot.ownership.ownedCount(
                partition -> opened.accepts(slot.writer, partition))).sum());
    }

    /**
     * Runs the slots' opening stages that fit the put's budget, takes the records of OWNED partitions, and writes what
     * waits once it is due ({@link CommitTrigger}): one transaction per slot.
     */
    void put(Collection<SinkRecord> records) {
        long putStarted = clock.millis();
        context.delivering();
        try {
            targetTopics.ensure(records); // a missing target topic is created before anything is sent to it
        } catch (RetriableException e) {
            throw transients.failed(e); // nothing taken: Connect delivers the same batch again, within the budget
        }
        Optional<Throwable> opening = advance();
        long now = clock.millis();
        Map<TopicPartition, List<SinkRecord>> notOwned = new LinkedHashMap<>();
        Set<TopicPartition> rewound = new HashSet<>();
        byPartition(records).forEach((partition, batch) -> {
            TaskSlot slot = TaskSlot.of(slots, partition);
            if (slot.ownership.owns(partition) && opened.accepts(slot.writer, partition)) {
                if (take(slot, partition, batch, now)) {
                    rewound.add(partition);
                }
            } else {
                notOwned.put(partition, batch);
            }
        });
        if (opening.isPresent() && !notOwned.isEmpty() && !context.soughtSincePutBegan()) {
            context.timeout(RETRY_BACKOFF_MS);
            throw transients.failed(new RetriableException("Could not open " + notOwned.keySet() + " now: "
                    + opening.get().getMessage() + ". Retried until "
                    + TransactionalSinkConfig.TRANSIENT_ERRORS_TIMEOUT_MS_CONFIG + "; check the target cluster, or"
                    + " raise " + TransactionalSinkConfig.PROGRESS_READ_TIMEOUT_MS_CONFIG + " (a read) or "
                    + TransactionalSinkConfig.TARGET_ADMIN_PREFIX + "default.api.timeout.ms (a fence)",
                    opening.get()));
        }
        notOwned.forEach((partition, batch) -> {
            if (opened.awaitsRead(partition)) {
                opened.hold(partition, batch);
            } else {
                opened.dropped(partition, batch);
            }
        });
        boolean due = trigger.dueInMs(waiting(), now).orElse(-1) == 0;
        if ((due || !rewound.isEmpty()) && startOverReplacedSources(rewound, due) && due) {
            for (TaskSlot slot : slots) {
                write(slot, now, putStarted + writeBound.toMillis());
            }
        }
        boolean stillOpening = slots.stream().anyMatch(slot -> !slot.ownership.opening().isEmpty())
                || opened.anyUnread(); // a progress read or rule V check to try again
        long earliest = opening.isPresent() ? RETRY_BACKOFF_MS : PROMPT_PUT_MS;
        trigger.dueInMs(waiting(), clock.millis()).ifPresentOrElse(ms -> context.timeout(Math.max(earliest, ms)),
                () -> {
                    if (stillOpening) {
                        context.timeout(earliest);
                    }
                });
        context.putReturned();
    }

    /** Each slot's stages; a failure for good fails the task. Answers what the last stage failed with for now. */
    private Optional<Throwable> advance() {
        StageBudget.Put put = budget.startPut();
        Optional<Throwable> transientFailure = Optional.empty();
        for (TaskSlot slot : slots) {
            Ownership.Opening opening = slot.ownership.advance(put);
            if (opening instanceof Ownership.Opening.Failed failure) {
                failed = true;
                throw failure.cause();
            }
            Ownership.Opening.Progressed progressed = (Ownership.Opening.Progressed) opening;
            writers.metrics().ownership(progressed.claimed(), progressed.fenced(), progressed.lost().size());
            progressed.lost().forEach(partition -> {
                opened.closed(slot.writer, partition);
                context.pause(partition);
            });
            try {
                opened.owned(slot, progressed.owned(), clock.millis());
            } catch (ConnectException e) { // a check that fails closed, an intent refused for good
                failed = true;
                throw e;
            }
            if (slot.ownership.lastFailure().isPresent()) {
                transientFailure = slot.ownership.lastFailure();
            }
        }
        countOwned();
        return transientFailure;
    }

    /**
     * Adds a delivered batch to its slot's waiting records, unless it starts past where the task last sought the
     * partition ({@link SeekingContext#gapAfterSeek}): then it is dropped and the partition sought back there.
     * Answers whether the batch starts below the committed progress (delivered again, or the consumer rewound).
     */
    private boolean take(TaskSlot slot, TopicPartition partition, List<SinkRecord> batch, long now) {
        OptionalLong gap = context.gapAfterSeek(partition, batch);
        if (gap.isPresent()) {
            log.warn("The worker delivered records of {} from {} on after the task sought it to {}: records fetched"
                    + " before the seek (Connect delivers a failed or not purged batch again). Dropped, and sought to"
                    + " {} again", partition, Coordinates.of(batch.get(0)), gap.getAsLong(), gap.getAsLong());
            context.offset(partition, gap.getAsLong());
            return false;
        }
        opened.starting(slot.writer, partition, batch.get(0).originalKafkaOffset());
        boolean rewound = batch.get(0).originalKafkaOffset() < slot.writer.committed(partition).orElseThrow().next();
        slot.writer.add(partition, batch, now);
        return rewound;
    }

    /**
     * Before a write: partitions with waiting records (and those the worker rewound by itself, as when its position
     * was out of range of a source topic created again shorter: their records all lie below the progress, none would
     * ever wait) whose source topic was deleted and created again start over ({@link Opened#startOverReplaced}). Returns whether the check was made: when the source cluster did not answer in
     * time the records keep waiting and nothing is written in this put, counted against
     * {@code transient.errors.timeout.ms}.
     */
    private boolean startOverReplacedSources(Set<TopicPartition> rewound, boolean due) {
        try {
            for (TaskSlot slot : slots) {
                List<TopicPartition> checking = slot.writer.committed().keySet().stream()
                        .filter(partition -> rewound.contains(partition)
                                || due && slot.writer.waiting(partition).count() > 0).toList();
                opened.startOverReplaced(slot.writer, checking);
            }
            return true;
        } catch (RetriableException e) {
            RuntimeException verdict = transients.failed(e);
            if (!(verdict instanceof RetriableException)) {
                failed = true;
                throw verdict;
            }
            log.warn("{}; the records wait, checked again at the next put", e.getMessage());
            return false;
        }
    }

    /** Writes what waits in {@code slot}'s partitions; the put ends as the outcome says. */
    private void write(TaskSlot slot, long now, long startStepsBy) {
        if (slot.writer.waiting().stream().allMatch(pending -> pending.count() == 0)) {
            return;
        }
        Set<TopicPartition> owned = slot.ownership.owned();
        List<TopicPartition> notWritable = slot.writer.committed().keySet().stream()
                .filter(p -> slot.writer.waiting(p).count() > 0 && (!slot.ownership.owns(p) || opened.awaitsRead(p)))
                .toList();
        if (!notWritable.isEmpty()) {
            // the slot re-initialises, or their progress read or rule V check has not answered since: what waits is
            // not written before (kept records would replace the written lines the check has to read)
            log.info("{} wait for {}'s re-initialisation or their check; their records are sought back", notWritable,
                    slot.id);
            opened.seekBack(slot.writer, notWritable);
            if (slot.writer.waiting().stream().allMatch(pending -> pending.count() == 0)) {
                return;
            }
        }
        progress.target().requireNotReplaced(owned);
        Outcome outcome;
        try {
            outcome = slot.writer.write(slot.transaction(), now, () -> clock.millis() <= startStepsBy);
        } catch (RetriableException e) {
            outcome = new Outcome.Transient(e); // a converter failed transiently, before anything was sent
        } catch (RuntimeException e) {
            failed = true; // failed for good before the transaction began: the task stops, nothing of it is kept
            slot.writer.committed().keySet().forEach(slot.writer::dropWaiting);
            throw e;
        }
        decide(slot, outcome, "Writing");
    }

    /** What a slot's transaction ended in, decided once. */
    private void decide(TaskSlot slot, Outcome outcome, String what) {
        if (outcome instanceof Outcome.Committed committed) {
            slot.ownership.committed();
            opened.committed(committed.progress().keySet());
            transients.succeeded();
            return;
        }
        progress.requireTopic(slot.ownership.owned()); // a deleted or replaced progress topic fails the task at once
        if (outcome instanceof Outcome.Fenced fenced) {
            slot.ownership.fenced(false);
            opened.seekBack(slot.writer, slot.writer.committed().keySet());
            log.warn("{} {} was fenced ({}); its partitions are sought back to their committed progress, the slot"
                    + " initialised again at the next put and its partitions read again before they are written",
                    what, slot.id, fenced.cause().getMessage());
            context.timeout(PROMPT_PUT_MS);
        } else if (outcome instanceof Outcome.Unknown unknown) {
            slot.ownership.reinitialise();
            opened.seekBack(slot.writer, slot.writer.committed().keySet());
            log.warn("{} {} ended unknown ({}); its partitions are sought back to their committed progress, the slot"
                    + " initialised again at the next put and its partitions read again before they are written",
                    what, slot.id, unknown.cause().getMessage());
            context.timeout(PROMPT_PUT_MS);
        } else if (outcome instanceof Outcome.Transient retry) {
            RuntimeException verdict = transients.failed(new RetriableException(what + " " + slot.ownership.owned()
                    + " as " + slot.id + " failed transiently: " + retry.cause().getMessage(), retry.cause()));
            if (!(verdict instanceof RetriableException) || !context.soughtSincePutBegan()) {
                failed |= !(verdict instanceof RetriableException);
                context.timeout(RETRY_BACKOFF_MS);
                throw verdict;
            }
            // a put that sought must not throw (Connect would deliver the batch again before the seeks): sought back
            opened.seekBack(slot.writer, slot.ownership.owned());
        } else if (outcome instanceof Outcome.Fatal fatal) {
            failed = true;
            slot.writer.committed().keySet().forEach(slot.writer::dropWaiting);
            throw fatal.cause();
        } else {
            failed = true;
            throw new ConnectException(what + " as " + slot.id + " ended in " + outcome);
        }
    }

    private List<PendingRecords> waiting() {
        List<PendingRecords> waiting = new ArrayList<>();
        slots.forEach(slot -> waiting.addAll(slot.writer.waiting()));
        return waiting;
    }

    /**
     * What Connect may commit to its own group for each OWNED partition: the committed progress, or, when nothing of
     * it waits, it was not sought since the last put and no write failed for good, the worker's position
     * ({@code delivered}) when that is further; the progress is moved there first, one transaction per slot
     * ({@link dev.quarantine.connect.sink.write.TaskWriter#move}), so records an SMT dropped are not read again.
     */
    Map<TopicPartition, OffsetAndMetadata> preCommit(Map<TopicPartition, OffsetAndMetadata> delivered) {
        Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
        for (TaskSlot slot : slots) {
            Set<TopicPartition> owned = slot.ownership.owned();
            Map<TopicPartition, Long> positions = new HashMap<>();
            slot.writer.committed().forEach((partition, committed) -> Optional.ofNullable(delivered.get(partition))
                    .filter(p -> !failed && owned.contains(partition) && slot.writer.waiting(partition).count() == 0
                            && !context.sought(partition) && p.offset() > committed.next())
                    .ifPresent(p -> positions.put(partition, p.offset())));
            if (!positions.isEmpty()) {
                progress.target().requireNotReplaced(positions.keySet());
                Outcome moved = slot.writer.move(slot.transaction(), positions);
                if (moved instanceof Outcome.Committed) {
                    slot.ownership.committed();
                } else {
                    log.warn("Moving the progress of {} on past records that never reached the task ended in {};"
                            + " left where it was", positions.keySet(), moved);
                    if (moved instanceof Outcome.Fenced) {
                        slot.ownership.fenced(false);
                    } else if (moved instanceof Outcome.Unknown) {
                        slot.ownership.reinitialise();
                    }
                }
            }
            slot.writer.committed().forEach((partition, committed) -> {
                if (owned.contains(partition) && !opened.unwritten(partition)) {
                    offsets.put(partition, new OffsetAndMetadata(committed.next()));
                }
            });
        }
        return offsets;
    }

    /** Closes the slots' producers, then the rest. */
    @Override
    public void close() {
        slots.forEach(slot -> slot.close(CLOSE_TIMEOUT));
        try {
            clients.close();
        } catch (Exception e) {
            log.warn("Closing the task's clients failed: {}", e.getMessage());
        }
        progress.close();
        targetTopics.close();
        writers.close();
    }

    private Map<TaskSlot, List<TopicPartition>> bySlot(Collection<TopicPartition> partitions) {
        Map<TaskSlot, List<TopicPartition>> bySlot = new LinkedHashMap<>();
        partitions.forEach(p -> bySlot.computeIfAbsent(TaskSlot.of(slots, p), s -> new ArrayList<>()).add(p));
        return bySlot;
    }

    private static Map<TopicPartition, List<SinkRecord>> byPartition(Collection<SinkRecord> records) {
        Map<TopicPartition, List<SinkRecord>> byPartition = new LinkedHashMap<>();
        for (SinkRecord record : records) {
            TopicPartition source = new TopicPartition(record.originalTopic(), record.originalKafkaPartition());
            byPartition.computeIfAbsent(source, p -> new ArrayList<>()).add(record);
        }
        return byPartition;
    }
}
