package dev.quarantine.connect.sink.progress;

import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

import org.apache.kafka.common.TopicPartition;

/**
 * A redo in progress for one source partition (docs/design/sink-ownership.md 2.7.1, rule V): the records of source
 * offsets below {@code end} are sent only to {@code partitions}, the target and dead-letter partitions where a committed
 * transaction of the partition was found aborted (or left open, then aborted for the redo), each from its own
 * {@code start} on (the {@code from} of the transaction lost there; records below it are committed there already); the
 * other partitions already hold their copy. From {@code end} on every record is sent as usual.
 *
 * <table>
 * <caption>Which records a transaction sends</caption>
 * <tr><th>source offset</th><th>destination</th><th>sent</th></tr>
 * <tr><td>below {@code end}</td><td>a partition of {@code partitions}, at or past its start</td><td>yes</td></tr>
 * <tr><td>below {@code end}</td><td>a partition of {@code partitions}, below its start</td><td>no: committed there
 *     before the transaction that was lost</td></tr>
 * <tr><td>below {@code end}</td><td>another partition</td><td>no: it holds the committed copy</td></tr>
 * <tr><td>below {@code end}</td><td>no partition chosen yet (a dead letter, a record without a partition)</td>
 *     <td>when its topic has a partition in {@code partitions} whose start it is at or past</td></tr>
 * <tr><td>{@code end} or above</td><td>any</td><td>yes</td></tr>
 * </table>
 *
 * <p>It relies on a record going to the same partition when written again: true of the target records by default
 * (a record keeps its source partition, or {@code target.partition.mapping} maps it by the partition counts the
 * progress keeps), not of an SMT that routes records differently each time, nor of a dead letter, whose partition the
 * producer chooses: a dead letter is sent again when its topic is redone.
 *
 * <p>Written as {@code redo.end=<end>} and {@code redo.partitions=<tp>[@<start>],...} (a start of 0 is not written;
 * topic names cannot hold {@code @}).
 */
public record RedoRange(long end, Map<TopicPartition, Long> starts) {

    static final String END = "redo.end";
    static final String PARTITIONS = "redo.partitions";

    public RedoRange {
        if (starts.isEmpty()) {
            throw new IllegalArgumentException(PARTITIONS + " is empty");
        }
        TreeMap<TopicPartition, Long> sorted = new TreeMap<>(RedoRange::compare);
        starts.forEach((tp, start) -> {
            if (start < 0) {
                throw new IllegalArgumentException(PARTITIONS + ": the start of " + tp + " is negative");
            }
            sorted.put(tp, start);
        });
        starts = Collections.unmodifiableMap(sorted);
    }

    /** A redo of {@code partitions}, each from the start of the range on. */
    public RedoRange(long end, Set<TopicPartition> partitions) {
        this(end, fromZero(partitions));
    }

    private static Map<TopicPartition, Long> fromZero(Set<TopicPartition> partitions) {
        Map<TopicPartition, Long> starts = new HashMap<>();
        partitions.forEach(tp -> starts.put(tp, 0L));
        return starts;
    }

    /** The partitions redone. */
    public Set<TopicPartition> partitions() {
        return starts.keySet();
    }

    /**
     * This redo, under way up to {@code progressNext}, joined with {@code lost} (rule V: partitions where the
     * transaction behind that progress was found aborted, each with its line's {@code from}) up to {@code end}: the
     * furthest end; a lost partition from its line's {@code from}; one of this redo not lost now from where this redo
     * got to ({@code progressNext}) or its own start if later, since what it redid below that is visible there.
     */
    public RedoRange joinedWith(long end, long progressNext, Map<TopicPartition, Long> lost) {
        Map<TopicPartition, Long> joined = new HashMap<>();
        starts.forEach((tp, start) -> joined.put(tp, Math.max(start, progressNext)));
        joined.putAll(lost);
        return new RedoRange(Math.max(this.end, end), joined);
    }

    /** Whether the record of source offset {@code offset} is sent to {@code topic}, {@code partition} (or null). */
    public boolean sends(long offset, String topic, Integer partition) {
        if (offset >= end) {
            return true;
        }
        if (partition == null) {
            return starts.entrySet().stream().anyMatch(e -> e.getKey().topic().equals(topic)
                    && offset >= e.getValue());
        }
        Long start = starts.get(new TopicPartition(topic, partition));
        return start != null && offset >= start;
    }

    /** Whether a progress record at {@code next} still carries this redo: it has not passed its end. */
    public boolean pendingAt(long next) {
        return next < end;
    }

    /** The {@code redo.partitions} line's value: {@code topic-partition[@start]}, comma-separated, sorted. */
    public String partitionsText() {
        return starts.entrySet().stream().map(e -> e.getValue() == 0 ? e.getKey().toString()
                : e.getKey() + "@" + e.getValue()).collect(Collectors.joining(","));
    }

    /**
     * The redo a progress record's lines hold: both lines or neither.
     *
     * @throws IllegalArgumentException when only one is there, or one cannot be read
     */
    static Optional<RedoRange> parse(String end, String partitions) {
        if (end == null && partitions == null) {
            return Optional.empty();
        }
        if (end == null || partitions == null) {
            throw new IllegalArgumentException(END + " and " + PARTITIONS + " come together, one is missing");
        }
        Map<TopicPartition, Long> parsed = new HashMap<>();
        for (String entry : partitions.split(",")) {
            int at = entry.indexOf('@');
            String partition = at < 0 ? entry : entry.substring(0, at);
            int dash = partition.lastIndexOf('-');
            if (dash <= 0) {
                throw new IllegalArgumentException(PARTITIONS + " holds " + partition + ", not a topic-partition");
            }
            long start = at < 0 ? 0 : Long.parseLong(entry.substring(at + 1).trim());
            parsed.put(new TopicPartition(partition.substring(0, dash),
                    Integer.parseInt(partition.substring(dash + 1).trim())), start);
        }
        return Optional.of(new RedoRange(Long.parseLong(end.trim()), parsed));
    }

    private static int compare(TopicPartition a, TopicPartition b) {
        int byTopic = a.topic().compareTo(b.topic());
        return byTopic != 0 ? byTopic : Integer.compare(a.partition(), b.partition());
    }
}
