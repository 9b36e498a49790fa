package dev.quarantine.connect.sink;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;

import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.errors.RetriableException;
import org.apache.kafka.connect.sink.SinkRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.quarantine.connect.sink.metrics.SinkMetrics;
import dev.quarantine.connect.sink.progress.ProgressRecord;
import dev.quarantine.connect.sink.progress.ProgressStore;
import dev.quarantine.connect.sink.write.TaskWriter;
import dev.quarantine.connect.sink.write.WriterFactory;

/**
 * Where the partitions a slot came to own resume (design 2.4 step 6, 2.6): each is read from its committed progress
 * once OWNED, the worker's consumer sought there and resumed, and its {@link TaskWriter} opened from it (or, after a
 * re-initialisation, its waiting records kept when the progress read equals the one in memory). A partition without
 * progress starts at the first record delivered after it became OWNED, or, when the task dropped records of it while
 * it was not OWNED (or closed it before its first commit), at the first of those, sought back to.
 */
final class Opened {

    private static final Logger log = LoggerFactory.getLogger(Opened.class);

    private final SeekingContext context;
    private final ProgressStore progress;
    private final String prefix;
    private final SinkMetrics metrics;
    private final LastCommitCheck lastCommits;
    /** OWNED without progress: the writer opens at the first record delivered. */
    private final Set<TopicPartition> startAtFirst = new HashSet<>();
    /** OWNED, the progress read (or its check) failed for now: read again at the next put. */
    private final Map<TopicPartition, TaskSlot> unread = new LinkedHashMap<>();
    /** Opened at a start of the task's own (no progress), nothing committed yet: not reported to Connect. */
    private final Set<TopicPartition> unwritten = new HashSet<>();
    /** Records delivered for partitions OWNED whose progress read failed for now: taken once it is read. */
    private final Map<TopicPartition, List<SinkRecord>> held = new HashMap<>();
    /** The first record dropped while not OWNED (or closed with records waiting before the first commit). */
    private final Map<TopicPartition, Long> droppedFirst = new HashMap<>();

    /** How long reads and checks of partitions OWNED may keep failing, or waiting, before the task fails. */
    private final TransientFailures checks;

    Opened(SeekingContext context, ProgressStore progress, String prefix, SinkMetrics metrics,
           TransientFailures checks) {
        this.checks = checks;
        this.context = context;
        this.progress = progress;
        this.prefix = prefix;
        this.metrics = metrics;
        this.lastCommits = new LastCommitCheck(metrics);
    }

    /**
     * {@code owned} became OWNED in {@code slot}: read, checked (rule V: {@link LastCommitCheck}), sought and resumed
     * (with those read before too). A partition whose last committed transaction is lost on the target first commits
     * its intent to redo; one whose check waits (a transaction open where that transaction wrote) stays unread,
     * checked again at the next put.
     */
    void owned(TaskSlot slot, Collection<TopicPartition> owned, long nowMs) {
        owned.forEach(partition -> unread.put(partition, slot));
        if (unread.isEmpty()) {
            return;
        }
        Map<String, TopicPartition> keys = new LinkedHashMap<>();
        unread.keySet().forEach(partition -> keys.put(WriterFactory.transactionalId(prefix, partition), partition));
        Map<String, ProgressRecord> read;
        Set<TopicPartition> waitingForCheck; // their rule V check waits for a transaction open where they last wrote
        try {
            read = new HashMap<>(progress.read(keys));
            waitingForCheck = lastCommits.check(keys, read, unread::get);
        } catch (RetriableException e) {
            RuntimeException verdict = checks.failed(e);
            if (!(verdict instanceof RetriableException)) {
                throw verdict;
            }
            log.warn("Reading or checking the progress of {} failed for now ({}); they stay paused and are read again"
                    + " at the next put", keys.values(), e.getMessage());
            return;
        }
        if (waitingForCheck.isEmpty()) {
            checks.succeeded();
        } else {
            RuntimeException verdict = checks.failed(new RetriableException(waitingForCheck + " wait: a transaction"
                    + " is open where their last committed transaction wrote, not one this task can end (find it"
                    + " with kafka-transactions.sh find-hanging)"));
            if (!(verdict instanceof RetriableException)) {
                throw verdict;
            }
        }
        Map<TopicPartition, Long> seeks = new LinkedHashMap<>();
        List<TopicPartition> resumed = new ArrayList<>();
        keys.forEach((key, partition) -> {
            if (!read.containsKey(key) && waitingForCheck.contains(partition)) {
                return; // its check waits: still unread
            }
            resumed.add(partition);
            TaskWriter slotWriter = unread.remove(partition).writer;
            ProgressRecord last = read.get(key);
            List<SinkRecord> kept = held.remove(partition);
            if (last != null) {
                resumeAt(slotWriter, partition, last).ifPresent(offset -> seeks.put(partition, offset));
                if (kept != null && kept.get(0).originalKafkaOffset() <= last.next()) {
                    slotWriter.add(partition, kept, nowMs); // contiguous with the progress: below it is skipped
                }
            } else {
                Long first = droppedFirst.remove(partition);
                if (first == null && kept != null) {
                    first = kept.get(0).originalKafkaOffset();
                }
                if (first != null) {
                    slotWriter.open(partition, progress.target().start(partition, first));
                    unwritten.add(partition);
                    if (kept != null && kept.get(0).originalKafkaOffset() == first) {
                        slotWriter.add(partition, kept, nowMs);
                    } else {
                        seeks.put(partition, first);
                    }
                } else if (!slotWriter.holds(partition)) {
                    startAtFirst.add(partition);
                }
            }
        });
        if (!seeks.isEmpty()) {
            context.offset(seeks);
        }
        context.resume(resumed.toArray(TopicPartition[]::new));
        if (!waitingForCheck.isEmpty()) {
            context.pause(waitingForCheck.toArray(TopicPartition[]::new)); // held records would grow meanwhile
        }
        log.info("Own {}; resuming {} from their committed progress", resumed, seeks);
    }

    /** Where {@code partition} resumes with committed progress {@code last}; empty when its waiting records are kept. */
    private OptionalLong resumeAt(TaskWriter writer, TopicPartition partition, ProgressRecord last) {
        startAtFirst.remove(partition);
        unwritten.remove(partition);
        boolean dropped = droppedFirst.remove(partition) != null;
        if (writer.holds(partition)) {
            metrics.reestablished(); // OWNED again after the slot's re-initialisation
            if (writer.reopen(partition, last)) {
                List<SinkRecord> kept = writer.waiting(partition).records();
                if (kept.isEmpty()) {
                    return OptionalLong.of(last.next());
                }
                return dropped ? OptionalLong.of(kept.get(kept.size() - 1).originalKafkaOffset() + 1)
                        : OptionalLong.empty();
            }
        }
        writer.open(partition, last);
        return OptionalLong.of(last.next());
    }

    /** Whether a partition OWNED waits for its progress read or its check. */
    boolean anyUnread() {
        return !unread.isEmpty();
    }

    /** Whether {@code partition} is OWNED and waits for its progress read: its records are held, not dropped. */
    boolean awaitsRead(TopicPartition partition) {
        return unread.containsKey(partition);
    }

    /** Holds records of a partition that waits for its progress read ({@link #awaitsRead}). */
    void hold(TopicPartition partition, List<SinkRecord> batch) {
        held.merge(partition, batch, (before, more) -> {
            List<SinkRecord> all = new ArrayList<>(before);
            all.addAll(more);
            return all;
        });
    }

    /** Whether records of {@code partition} are taken by {@code writer} now. */
    boolean accepts(TaskWriter writer, TopicPartition partition) {
        return !unread.containsKey(partition) && (writer.holds(partition) || startAtFirst.contains(partition));
    }

    /** Records of {@code partition} from {@code first} on are about to be taken: a writer without progress opens. */
    void starting(TaskWriter writer, TopicPartition partition, long first) {
        if (startAtFirst.remove(partition)) {
            writer.open(partition, progress.target().start(partition, first));
            unwritten.add(partition);
        }
    }

    /** Records of {@code partition}, not OWNED now, were dropped: it is sought back when it is OWNED again. */
    void dropped(TopicPartition partition, List<SinkRecord> batch) {
        droppedFirst.merge(partition, batch.get(0).originalKafkaOffset(), Math::min);
    }

    /** {@code partition} is no longer written by {@code writer}'s slot (closed, or LOST). */
    void closed(TaskWriter writer, TopicPartition partition) {
        List<SinkRecord> waiting = writer.waiting(partition).records();
        if (unwritten.remove(partition) && !waiting.isEmpty()) {
            droppedFirst.merge(partition, waiting.get(0).originalKafkaOffset(), Math::min);
        } else if (!unwritten.contains(partition)) {
            droppedFirst.remove(partition);
        }
        writer.close(partition);
        startAtFirst.remove(partition);
        unread.remove(partition);
        held.remove(partition);
    }

    /** The partitions' first transactions committed. */
    void committed(Collection<TopicPartition> partitions) {
        unwritten.removeAll(partitions);
    }

    /** Whether {@code partition} was opened at a start of the task's own and has not committed since. */
    boolean unwritten(TopicPartition partition) {
        return unwritten.contains(partition);
    }

    /**
     * Before writing: the partitions among {@code partitions} whose source topic was deleted and created again under
     * the worker's consumer ({@link ProgressStore#replacedSources}) drop what waits (the new topic's records from the
     * old position on) and start over where the new topic starts, sought there, so none of the new topic's records
     * is skipped.
     *
     * @throws RetriableException when the source cluster did not answer in time
     */
    void startOverReplaced(TaskWriter writer, Collection<TopicPartition> partitions) {
        Map<TopicPartition, Long> starts = progress.replacedSources(partitions);
        starts.forEach((partition, start) -> {
            writer.open(partition, progress.target().start(partition, start));
            unwritten.add(partition);
            context.offset(partition, start);
        });
    }

    /** A put that sought must not throw: the partitions drop what waits and are sought back to their progress. */
    void seekBack(TaskWriter writer, Collection<TopicPartition> partitions) {
        Map<TopicPartition, Long> seeks = new LinkedHashMap<>();
        partitions.forEach(partition -> {
            List<SinkRecord> waiting = writer.waiting(partition).records();
            if (!waiting.isEmpty()) {
                ProgressRecord committed = writer.committed(partition).orElseThrow();
                seeks.put(partition, unwritten.contains(partition) ? waiting.get(0).originalKafkaOffset()
                        : committed.next());
                writer.dropWaiting(partition);
            }
        });
        context.offset(seeks);
    }
}
