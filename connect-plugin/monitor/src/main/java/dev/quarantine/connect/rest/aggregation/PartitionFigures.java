package dev.quarantine.connect.rest.aggregation;

import java.io.DataOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The figures of some partitions of the aggregation (of some tasks), as read from one worker's stores or received
 * from another worker; partials of disjoint partitions add up to the cluster-wide figures. Not thread-safe.
 */
public final class PartitionFigures {

    /** What to read. @param topic one topic, or {@code null} for all; @param records recent records wanted (0: none) */
    public record Query(String topic, int records) {
    }

    private final SortedSet<Integer> partitions = new TreeSet<>();
    private final SortedSet<Integer> missing = new TreeSet<>();
    private final SortedMap<String, TopicStats> stats = new TreeMap<>();
    private final SortedMap<String, SortedMap<Long, Long>> minutes = new TreeMap<>();
    private final List<DeadLetterRecord> records = new ArrayList<>();

    public SortedSet<Integer> partitions() {
        return partitions;
    }

    /**
     * Partitions of the aggregation whose figures are not in here because the workers holding them are not trusted
     * (no peer secret): the answer says it is incomplete. Only in cluster-wide figures, never sent between workers.
     */
    public SortedSet<Integer> missing() {
        return missing;
    }

    public SortedMap<String, TopicStats> stats() {
        return stats;
    }

    /** Per topic: one-minute window start (epoch ms) to record count. */
    public SortedMap<String, SortedMap<Long, Long>> minutes() {
        return minutes;
    }

    /** Newest first. */
    public List<DeadLetterRecord> records() {
        return records;
    }

    public void addStats(String topic, TopicStats topicStats) {
        stats.merge(topic, topicStats, TopicStats::merge);
    }

    public void addMinute(String topic, long windowStart, long count) {
        minutes.computeIfAbsent(topic, t -> new TreeMap<>()).merge(windowStart, count, Long::sum);
    }

    /** Adds {@code other}'s figures; keeps the {@code limit} newest records. */
    public PartitionFigures merge(PartitionFigures other, int limit) {
        if (!Collections.disjoint(partitions, other.partitions)) {
            throw new IllegalStateException("partitions " + other.partitions + " counted twice (have " + partitions
                    + ")");
        }
        partitions.addAll(other.partitions);
        other.stats.forEach(this::addStats);
        other.minutes.forEach((topic, windows) -> windows.forEach((start, count) -> addMinute(topic, start, count)));
        addRecords(other.records, limit);
        return this;
    }

    void addRecords(List<DeadLetterRecord> more, int limit) {
        records.addAll(more);
        records.sort(DeadLetterRecord::newestFirst);
        if (records.size() > limit) {
            records.subList(limit, records.size()).clear();
        }
    }

    public static void write(PartitionFigures partial, DataOutputStream out) throws IOException {
        out.writeInt(partial.partitions.size());
        for (int partition : partial.partitions) {
            out.writeInt(partition);
        }
        out.writeInt(partial.stats.size());
        for (Map.Entry<String, TopicStats> entry : partial.stats.entrySet()) {
            Codec.writeString(entry.getKey(), out);
            TopicStats.write(entry.getValue(), out);
        }
        out.writeInt(partial.minutes.size());
        for (Map.Entry<String, SortedMap<Long, Long>> entry : partial.minutes.entrySet()) {
            Codec.writeString(entry.getKey(), out);
            out.writeInt(entry.getValue().size());
            for (Map.Entry<Long, Long> window : entry.getValue().entrySet()) {
                out.writeLong(window.getKey());
                out.writeLong(window.getValue());
            }
        }
        out.writeInt(partial.records.size());
        for (DeadLetterRecord record : partial.records) {
            DeadLetterRecord.write(record, out);
        }
    }

    public static PartitionFigures read(Codec.Input in) throws IOException {
        PartitionFigures partial = new PartitionFigures();
        for (int i = in.readCount(); i > 0; i--) {
            partial.partitions.add(in.readInt());
        }
        for (int i = in.readCount(); i > 0; i--) {
            partial.stats.put(in.readString(), TopicStats.read(in));
        }
        for (int i = in.readCount(); i > 0; i--) {
            String topic = in.readString();
            for (int j = in.readCount(); j > 0; j--) {
                partial.addMinute(topic, in.readLong(), in.readLong());
            }
        }
        for (int i = in.readCount(); i > 0; i--) {
            partial.records.add(DeadLetterRecord.read(in));
        }
        return partial;
    }
}
