package dev.quarantine.txn.progress;

import java.util.Map;
import java.util.stream.Collectors;

import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TimeoutException;

/**
 * A read of a compacted topic that did not reach its end ({@link ReadEnd}) by the caller's deadline: most often a
 * transaction still open below the end holds a read_committed consumer back (another writer's, or one left hanging
 * by a broker that skipped its markers), else a slow cluster. Retriable: the caller reads again later; it never
 * takes the shorter read for the answer. Names each partition not reached, where the read stood and the end.
 */
public class ReadHeldBackException extends TimeoutException {

    private final Map<TopicPartition, Long> stoppedAt;
    private final Map<TopicPartition, Long> end;

    ReadHeldBackException(Map<TopicPartition, Long> stoppedAt, Map<TopicPartition, Long> end, ReadEnd bound) {
        super("Read " + stoppedAt.entrySet().stream().map(e -> e.getKey() + " up to offset " + e.getValue() + " of "
                + end.get(e.getKey())).collect(Collectors.joining(", ")) + " (the " + describe(bound) + " when the read"
                + " started) by the deadline: a transaction still open there holds the rest back (kafka-transactions.sh"
                + " find-hanging names a hanging one), or the cluster is slow; not answering from a shorter read");
        this.stoppedAt = Map.copyOf(stoppedAt);
        this.end = Map.copyOf(end);
    }

    private static String describe(ReadEnd bound) {
        return bound == ReadEnd.HIGH_WATERMARK ? "high watermark" : "last stable offset";
    }

    /** Where the read stood in each partition it did not finish. */
    public Map<TopicPartition, Long> stoppedAt() {
        return stoppedAt;
    }

    /** The end offset the read had to reach, per partition. */
    public Map<TopicPartition, Long> end() {
        return end;
    }
}
