package dev.quarantine.connect.sink;

import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.errors.RetriableException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.quarantine.connect.sink.cluster.WrittenCheck;
import dev.quarantine.connect.sink.cluster.WrittenCheck.Verdict;
import dev.quarantine.connect.sink.metrics.SinkMetrics;
import dev.quarantine.connect.sink.progress.ProgressRecord;
import dev.quarantine.connect.sink.write.TaskTransaction.Outcome;

/**
 * Rule V (design 2.7.1 step 3) over the progress just read for partitions that became OWNED, before they resume: a
 * partition whose last committed transaction is lost somewhere (aborted on the target after it committed, or its
 * progress record aborted on the progress topic while the slot still holds it in memory) commits its intent to redo,
 * one transaction per slot, and resumes from that intent; one whose check waits (a transaction open where its last
 * committed transaction wrote) stays unread; records gone from the target fail the task (fail closed).
 */
final class LastCommitCheck {

    /** Logged under {@link Opened}'s name, where these checks have always been logged. */
    private static final Logger log = LoggerFactory.getLogger(Opened.class);

    private final SinkMetrics metrics;

    LastCommitCheck(SinkMetrics metrics) {
        this.metrics = metrics;
    }

    /**
     * Checks the progress {@code read} under {@code keys} (a progress key per partition), each partition of the slot
     * {@code slotOf} says: a partition's entry in {@code read} becomes its intent when it commits one, and is removed
     * when its check waits. Answers the partitions whose check waits.
     *
     * @throws RetriableException when the target did not answer in time, or an intent did not commit
     */
    Set<TopicPartition> check(Map<String, TopicPartition> keys, Map<String, ProgressRecord> read,
                              Function<TopicPartition, TaskSlot> slotOf) {
        Map<TopicPartition, ProgressRecord> checked = new LinkedHashMap<>();
        Map<TopicPartition, String> keyOf = new HashMap<>();
        Map<TaskSlot, Map<TopicPartition, ProgressRecord>> intents = new LinkedHashMap<>();
        keys.forEach((key, partition) -> {
            ProgressRecord last = aheadInMemory(partition, slotOf.apply(partition), read.get(key))
                    .orElse(read.get(key));
            if (last != null && !last.equals(read.get(key))) {
                read.put(key, last);
                intents.computeIfAbsent(slotOf.apply(partition), s -> new LinkedHashMap<>()).put(partition, last);
            }
            keyOf.put(partition, key);
            if (last != null && !last.written().isEmpty()) {
                checked.put(partition, last);
            }
        });
        Set<TopicPartition> waiting = new HashSet<>();
        Map<TopicPartition, Verdict> verdicts = checked.isEmpty() ? Map.of()
                : slotOf.apply(checked.keySet().iterator().next()).repair.check(checked);
        verdicts.forEach((partition, verdict) -> {
            ProgressRecord last = checked.get(partition);
            if (verdict instanceof WrittenCheck.Redo redo) {
                log.warn("The last committed transaction of {} (source offsets {} to {}) was aborted on {} after it"
                        + " committed (its markers skipped there by a broker, then an abort of the same producer id):"
                        + " its records there are written again from source offset {}", partition, last.from(),
                        last.next() - 1, redo.redoFrom(), redo.next());
                intents.computeIfAbsent(slotOf.apply(partition), s -> new LinkedHashMap<>()).put(partition,
                        last.redoing(redo.next(), redo.redoEnd(), redo.redoFrom()));
            } else if (verdict instanceof WrittenCheck.Wait wait) {
                log.warn("{} stays paused: a transaction is open on {} where its last committed transaction wrote;"
                        + " checked again at the next put", partition, wait.heldBack());
                waiting.add(partition);
                read.remove(keyOf.get(partition));
                intents.getOrDefault(slotOf.apply(partition), new HashMap<>()).remove(partition);
            } else if (verdict instanceof WrittenCheck.ProgressAborted aborted) {
                throw new ConnectException("A record of " + partition + " is visible at " + aborted.partition() + "@"
                        + aborted.offset() + " after its last committed progress: its progress record was aborted."
                        + " The task stops rather than copy twice");
            } else if (verdict instanceof WrittenCheck.Clean clean && !clean.deleted().isEmpty()) {
                log.warn("The records of the last committed transaction of {} on {} are gone (retention, compaction of"
                        + " a compacted topic, their topic deleted or created again, or an unclean election) before"
                        + " they could be checked; nothing is redone there", partition, clean.deleted());
            }
        });
        intents.forEach((slot, redo) -> {
            Outcome outcome = slot.writer.intents(slot.transaction(), redo);
            if (!(outcome instanceof Outcome.Committed committed)) {
                if (outcome instanceof Outcome.Fenced) {
                    slot.ownership.fenced(false);
                } else if (outcome instanceof Outcome.Unknown) {
                    slot.ownership.reinitialise();
                } else if (outcome instanceof Outcome.Fatal fatal) {
                    throw fatal.cause();
                }
                throw new RetriableException("The intent to redo " + redo.keySet() + " did not commit (" + outcome
                        + ")");
            }
            metrics.commitsRedone((int) redo.values().stream().filter(r -> r.redo().isPresent()).count());
            committed.progress().forEach((partition, intent) -> read.put(keyOf.get(partition), intent));
        });
        return waiting;
    }

    /**
     * The progress {@code slot} committed for {@code partition} and still holds in memory, when the progress just read
     * is behind it: a commit of the slot returned done, so its progress record is committed, and reads behind only
     * when it was aborted on progress partition 0 after it committed (its marker skipped there, then an abort of the
     * same producer id: design 2.7.1, "C's progress record aborted"). Going by the read would write its records again;
     * the slot commits it again instead (and rule V checks its lines). Empty when memory is not ahead, or not this
     * slot's.
     */
    private static Optional<ProgressRecord> aheadInMemory(TopicPartition partition, TaskSlot slot,
                                                          ProgressRecord read) {
        ProgressRecord memory = slot.writer.committed(partition).orElse(null);
        // only a read at or below where memory's own transaction began, carrying no redo (another instance of the
        // id redoing part of it reads between: a review finding), is one memory's record was lost to
        if (memory == null || memory.holder().isEmpty() || !memory.holder().get().id().equals(slot.id)
                || read != null && (read.next() > memory.from() || memory.next() <= read.next()
                || read.redo().isPresent() || !memory.topicId().equals(read.topicId())
                || !memory.sourceTopicId().equals(read.sourceTopicId()))) {
            return Optional.empty();
        }
        log.warn("The progress of {} read back (next {}) is behind the progress {} committed (next {}): its progress"
                + " record was aborted on the progress topic after it committed (a broker skipped its marker there,"
                + " then an abort of the same producer id). Committed again, so its records are not written twice",
                partition, read == null ? "none" : read.next(), slot.id, memory.next());
        return Optional.of(memory);
    }
}
