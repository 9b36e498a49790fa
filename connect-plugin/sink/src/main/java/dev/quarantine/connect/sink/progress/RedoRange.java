package dev.quarantine.connect.sink.progress;

import java.util.Collection;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

import org.apache.kafka.common.TopicPartition;

import dev.quarantine.connect.sink.cluster.HangingTransactions;

/**
 * A redo in progress for one source partition (see {@link HangingTransactions}, "A committed transaction left open"):
 * the records of source offsets below {@code end} are sent only to {@code partitions}, the target and dead-letter
 * partitions where a committed transaction of the partition's producer was found open and aborted; the others already
 * hold their copy. From {@code end} on every record is sent as usual.
 *
 * <table>
 * <caption>Which records a transaction sends</caption>
 * <tr><th>source offset</th><th>destination</th><th>sent</th></tr>
 * <tr><td>below {@code end}</td><td>a partition of {@code partitions}</td><td>yes</td></tr>
 * <tr><td>below {@code end}</td><td>another partition</td><td>no: it holds the committed copy</td></tr>
 * <tr><td>below {@code end}</td><td>no partition chosen yet (a dead letter, a record without a partition)</td>
 *     <td>when its topic has a partition in {@code partitions}</td></tr>
 * <tr><td>{@code end} or above</td><td>any</td><td>yes</td></tr>
 * </table>
 *
 * <p>It relies on a record going to the same partition when written again: true of the target records by default
 * (a record keeps its source partition, or {@code target.partition.mapping} maps it by the partition counts the
 * progress keeps), not of an SMT that routes records differently each time, nor of a dead letter, whose partition the
 * producer chooses: a dead letter is sent again when its topic is redone.
 */
public record RedoRange(long end, Set<TopicPartition> partitions) {

    static final String END = "redo.end";
    static final String PARTITIONS = "redo.partitions";

    public RedoRange {
        if (partitions.isEmpty()) {
            throw new IllegalArgumentException(PARTITIONS + " is empty");
        }
        partitions = Set.copyOf(partitions);
    }

    /**
     * The redo after {@code last} (the partition's committed progress) when the transactions of its producer were
     * found open on {@code open}: from {@code last}'s {@code from} up to its {@code next}, or to the end of a redo
     * {@code last} was part of, on those partitions and the ones that redo covered.
     */
    public static RedoRange after(ProgressRecord last, Collection<TopicPartition> open) {
        Set<TopicPartition> partitions = new TreeSet<>(RedoRange::compare);
        partitions.addAll(open);
        long end = last.next();
        if (last.redo().isPresent()) {
            partitions.addAll(last.redo().get().partitions());
            end = Math.max(end, last.redo().get().end());
        }
        return new RedoRange(end, partitions);
    }

    /** Whether the record of source offset {@code offset} is sent to {@code topic}, {@code partition} (or null). */
    public boolean sends(long offset, String topic, Integer partition) {
        if (offset >= end) {
            return true;
        }
        if (partition == null) {
            return partitions.stream().anyMatch(p -> p.topic().equals(topic));
        }
        return partitions.contains(new TopicPartition(topic, partition));
    }

    /** Whether a progress record at {@code next} still carries this redo: it has not passed its end. */
    public boolean pendingAt(long next) {
        return next < end;
    }

    /** The topics of the partitions redone. */
    public Set<String> topics() {
        return partitions.stream().map(TopicPartition::topic).collect(Collectors.toCollection(TreeSet::new));
    }

    /** The {@code redo.partitions} line's value: {@code topic-partition}, comma-separated, sorted. */
    public String partitionsText() {
        return partitions.stream().sorted(RedoRange::compare).map(TopicPartition::toString)
                .collect(Collectors.joining(","));
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
        Set<TopicPartition> parsed = new TreeSet<>(RedoRange::compare);
        for (String partition : partitions.split(",")) {
            int dash = partition.lastIndexOf('-');
            if (dash <= 0) {
                throw new IllegalArgumentException(PARTITIONS + " holds " + partition + ", not a topic-partition");
            }
            parsed.add(new TopicPartition(partition.substring(0, dash),
                    Integer.parseInt(partition.substring(dash + 1).trim())));
        }
        return Optional.of(new RedoRange(Long.parseLong(end.trim()), parsed));
    }

    private static int compare(TopicPartition a, TopicPartition b) {
        int byTopic = a.topic().compareTo(b.topic());
        return byTopic != 0 ? byTopic : Integer.compare(a.partition(), b.partition());
    }
}
