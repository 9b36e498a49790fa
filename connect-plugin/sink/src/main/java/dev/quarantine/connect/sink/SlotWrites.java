package dev.quarantine.connect.sink;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.BooleanSupplier;

import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.errors.RetriableException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.quarantine.connect.sink.progress.ProgressStore;
import dev.quarantine.connect.sink.write.TaskTransaction.Outcome;

/**
 * The task's transactions, one per slot, and what their outcomes mean (docs/design/sink-ownership.md 2.5, 2.6): a
 * put's write of what waits (after the sources replaced under the worker start over), the sends of a put below the
 * trigger in the transaction begun ahead of it, and {@code preCommit}'s move of the progress past records that never
 * reached the task. Each outcome is decided once: committed, fenced or unknown
 * (the slot initialised again, its partitions sought back), transient (retried within
 * {@code transient.errors.timeout.ms}) or fatal. It keeps whether a write failed for good, which stops
 * {@code preCommit} from moving any progress on.
 */
final class SlotWrites {

    /** Logged under {@link SinkTaskHandler}'s name, where the task's writes have always been logged. */
    private static final Logger log = LoggerFactory.getLogger(SinkTaskHandler.class);

    private final SeekingContext context;
    private final List<TaskSlot> slots;
    private final Opened opened;
    private final ProgressStore progress;
    private final TransientFailures transients;
    /** A write failed for good: its waiting records were dropped, which the worker counts as delivered. */
    private boolean failed;

    SlotWrites(SeekingContext context, List<TaskSlot> slots, Opened opened, ProgressStore progress,
               TransientFailures transients) {
        this.context = context;
        this.slots = slots;
        this.opened = opened;
        this.progress = progress;
        this.transients = transients;
    }

    /** The task fails for good from a put: what it dropped counts as delivered, so no progress is moved on. */
    void failedForGood() {
        failed = true;
    }

    /**
     * Before a write: partitions with waiting records (and those the worker rewound by itself, as when its position
     * was out of range of a source topic created again shorter: their records all lie below the progress, none would
     * ever wait) whose source topic was deleted and created again start over ({@link Opened#startOverReplaced}).
     * Returns whether the check was made: when the source cluster did not answer in time the records keep waiting and
     * nothing is written in this put, counted against {@code transient.errors.timeout.ms}.
     */
    boolean startOverReplacedSources(Set<TopicPartition> rewound, boolean due) {
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

    /**
     * Writes what waits in every slot's partitions, one transaction per slot, whose steps start while
     * {@code mayStartSteps} (within the put's write bound); the put ends as the outcomes say.
     */
    void write(long now, BooleanSupplier mayStartSteps) {
        for (TaskSlot slot : slots) {
            write(slot, now, mayStartSteps);
        }
    }

    /** Writes what waits in {@code slot}'s partitions; the put ends as the outcome says. */
    private void write(TaskSlot slot, long now, BooleanSupplier mayStartSteps) {
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
            outcome = slot.writer.write(slot.transaction(), now, mayStartSteps);
        } catch (RetriableException e) {
            outcome = new Outcome.Transient(e); // a converter failed transiently, before anything was sent
        } catch (RuntimeException e) {
            failed = true; // failed for good before the transaction began: the task stops, nothing of it is kept
            slot.writer.committed().keySet().forEach(slot.writer::dropWaiting);
            throw e;
        }
        decide(slot, outcome, "Writing");
    }

    /**
     * Before {@code slot}'s producer does anything else, or once what it sent changed: abandons the transaction it
     * began ahead of the commit trigger ({@link dev.quarantine.connect.sink.write.TaskWriter#abandonAhead}). Answers
     * whether the slot goes on; when not, it was fenced or its abort's outcome is unknown, and it initialises again.
     */
    /** Settles every slot's transaction begun ahead ({@link #settle}): the put ends without a write. */
    void settleAll() {
        slots.forEach(slot -> {
            if (slot.writer.hasAhead()) {
                settle(slot);
            }
        });
    }

    /** Whether a slot's transaction begun ahead ended before its trigger: its write is due now. */
    boolean anyAheadEnded() {
        return slots.stream().anyMatch(slot -> slot.writer.aheadEnded());
    }

    boolean settle(TaskSlot slot) {
        Optional<Outcome> abandoned = slot.writer.abandonAhead();
        abandoned.ifPresent(outcome -> decide(slot, outcome, "The transaction begun ahead of the commit trigger by"));
        return abandoned.isEmpty();
    }

    /**
     * After a put that wrote nothing: each slot whose partitions with waiting records are all OWNED and read, with no
     * stage of its ownership to run and nothing sought in the put, sends what waits in the transaction it begins
     * ahead of the commit trigger ({@link dev.quarantine.connect.sink.write.TaskWriter#sendAhead}).
     */
    void sendAhead() {
        if (failed || context.soughtSincePutBegan() || opened.anyUnread()) {
            return;
        }
        for (TaskSlot slot : slots) {
            boolean writable = !slot.ownership.hasStagesToRun() && slot.writer.withRecordsWaiting().stream()
                    .allMatch(p -> slot.ownership.owns(p) && !opened.awaitsRead(p));
            if (writable && (!slot.writer.aheadSpoilt() || settle(slot))) {
                slot.writer.sendAhead(slot::transaction);
            }
        }
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
            startAgain(slot, what, "was fenced", fenced.cause());
        } else if (outcome instanceof Outcome.Unknown unknown) {
            slot.ownership.reinitialise();
            startAgain(slot, what, "ended unknown", unknown.cause());
        } else if (outcome instanceof Outcome.Transient retry) {
            RuntimeException verdict = transients.failed(new RetriableException(what + " " + slot.ownership.owned()
                    + " as " + slot.id + " failed transiently: " + retry.cause().getMessage(), retry.cause()));
            if (!(verdict instanceof RetriableException) || !context.soughtSincePutBegan()) {
                failed |= !(verdict instanceof RetriableException);
                context.timeout(SinkTaskHandler.RETRY_BACKOFF_MS);
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

    /** The slot is initialised again at the next put, asked for promptly: its partitions are sought back. */
    private void startAgain(TaskSlot slot, String what, String ended, Throwable cause) {
        opened.seekBack(slot.writer, slot.writer.committed().keySet());
        log.warn("{} {} " + ended + " ({}); its partitions are sought back to their committed progress, the slot"
                + " initialised again at the next put and its partitions read again before they are written",
                what, slot.id, cause.getMessage());
        context.timeout(SinkTaskHandler.PROMPT_PUT_MS);
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
}
