package dev.quarantine.connect.sink;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
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
import dev.quarantine.connect.sink.write.WriterFactory;

/**
 * What a {@link TransactionalKafkaSinkTask} does, without Connect (docs/design/sink-ownership.md 2.3-2.6): the task's
 * slots ({@link TaskSlot}, one transactional producer each) own the assigned source partitions through
 * {@link Ownership} and write them through their {@link dev.quarantine.connect.sink.write.TaskWriter}, one transaction
 * per slot per commit trigger spanning every partition it owns, its dead letters and its progress ({@link SlotWrites}:
 * the transactions and what their outcomes mean).
 *
 * <p>{@code open} makes no round trip and does not pause the partitions (see {@link #open}): the put their first
 * records come with runs the stages that claim, fence and read them ({@link Ownership#advance}). A partition that
 * becomes OWNED is sought to its committed progress and resumed ({@link Opened}); one found LOST is paused and its
 * records dropped. Records of partitions that are not OWNED are not taken. A batch that starts past where the task
 * last sought its partition is refused and the partition sought back ({@link SeekingContext#gapAfterSeek}).
 */
final class SinkTaskHandler implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(SinkTaskHandler.class);
    /** Within Connect's default task.shutdown.graceful.timeout.ms (5 s), for all producers. */
    static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(4);
    /** The poll timeout a put asks for after a failure for now, before the next try. */
    static final long RETRY_BACKOFF_MS = 1_000;
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
    private final SlotWrites writes;

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
        this.writes = new SlotWrites(this.context, this.slots, opened, progress, transients);
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
     * waits once it is due ({@link CommitTrigger}): one transaction per slot, begun ahead of the trigger by the puts
     * before it ({@link SlotWrites#sendAhead}).
     */
    void put(Collection<SinkRecord> records) {
        long putStarted = clock.millis();
        context.delivering();
        try {
            targetTopics.ensure(records); // a missing target topic is created before anything is sent to it
        } catch (RetriableException e) {
            throw transients.failed(e); // nothing taken: Connect delivers the same batch again, within the budget
        }
        slots.forEach(slot -> {
            if (slot.writer.aheadSpoilt() || slot.writer.hasAhead() && (slot.ownership.hasStagesToRun()
                    || opened.anyUnread())) {
                writes.settle(slot); // the stages and checks may use the slot's producer
            }
        });
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
        if (opening.isPresent() && !notOwned.isEmpty()) {
            writes.settleAll(); // the put fails (retried up to transient.errors.timeout.ms): nothing is left open
        }
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
        boolean due = trigger.dueInMs(waiting(), now).orElse(-1) == 0 || writes.anyAheadEnded();
        boolean checked = !(due || !rewound.isEmpty()) || writes.startOverReplacedSources(rewound, due);
        if (due && checked) {
            long startStepsBy = putStarted + writeBound.toMillis();
            writes.write(now, () -> clock.millis() <= startStepsBy);
        } else if (due) {
            writes.settleAll(); // not written in this put: nothing is left open meanwhile
        } else if (checked) {
            writes.sendAhead();
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
                writes.failedForGood();
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
                writes.failedForGood();
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

    private List<PendingRecords> waiting() {
        List<PendingRecords> waiting = new ArrayList<>();
        slots.forEach(slot -> waiting.addAll(slot.writer.waiting()));
        return waiting;
    }

    /**
     * What Connect may commit to its own group for each OWNED partition, the progress moved on first where it may
     * ({@link SlotWrites#preCommit}).
     */
    Map<TopicPartition, OffsetAndMetadata> preCommit(Map<TopicPartition, OffsetAndMetadata> delivered) {
        return writes.preCommit(delivered);
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
