package dev.quarantine.connect.rest;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.Map;
import java.util.TreeMap;

import org.apache.kafka.common.serialization.Serde;

/**
 * Totals of one dead-letter topic (in a store: of one of its partitions): the record count, first and last record
 * timestamps, and counts by original topic, by connector or application and by error class. Each breakdown keeps at
 * most {@link #MAX_KEYS} names; records beyond that are counted under {@link #OTHER}. Not thread-safe.
 */
final class TopicStats {

    static final int MAX_KEYS = 500;
    static final String OTHER = "(other)";
    static final Serde<TopicStats> SERDE = Codec.serde(TopicStats::write, TopicStats::read);

    private long total;
    private long firstSeen = Long.MAX_VALUE;
    private long lastSeen = Long.MIN_VALUE;
    private final Map<String, Long> byOriginalTopic = new TreeMap<>();
    private final Map<String, Long> byConnector = new TreeMap<>();
    private final Map<String, Long> byErrorClass = new TreeMap<>();

    void add(DeadLetterRecord record) {
        total++;
        firstSeen = Math.min(firstSeen, record.timestamp());
        lastSeen = Math.max(lastSeen, record.timestamp());
        count(byOriginalTopic, record.originalTopicOrUnknown(), 1);
        count(byConnector, record.connectorOrUnknown(), 1);
        count(byErrorClass, record.errorClassOrUnknown(), 1);
    }

    /** Adds {@code other}'s figures (another partition of the same topic) to these. */
    TopicStats merge(TopicStats other) {
        total += other.total;
        firstSeen = Math.min(firstSeen, other.firstSeen);
        lastSeen = Math.max(lastSeen, other.lastSeen);
        other.byOriginalTopic.forEach((k, v) -> count(byOriginalTopic, k, v));
        other.byConnector.forEach((k, v) -> count(byConnector, k, v));
        other.byErrorClass.forEach((k, v) -> count(byErrorClass, k, v));
        return this;
    }

    long total() {
        return total;
    }

    /** Epoch ms of the newest record, or {@code null} before the first one. */
    Long lastSeen() {
        return total == 0 ? null : lastSeen;
    }

    Long firstSeen() {
        return total == 0 ? null : firstSeen;
    }

    Map<String, Long> byOriginalTopic() {
        return byOriginalTopic;
    }

    Map<String, Long> byConnector() {
        return byConnector;
    }

    Map<String, Long> byErrorClass() {
        return byErrorClass;
    }

    private static void count(Map<String, Long> counts, String name, long n) {
        String key = counts.containsKey(name) || counts.size() < MAX_KEYS ? name : OTHER;
        counts.merge(key, n, Long::sum);
    }

    static void write(TopicStats stats, DataOutputStream out) throws IOException {
        out.writeLong(stats.total);
        out.writeLong(stats.firstSeen);
        out.writeLong(stats.lastSeen);
        writeCounts(stats.byOriginalTopic, out);
        writeCounts(stats.byConnector, out);
        writeCounts(stats.byErrorClass, out);
    }

    static TopicStats read(DataInputStream in) throws IOException {
        TopicStats stats = new TopicStats();
        stats.total = in.readLong();
        stats.firstSeen = in.readLong();
        stats.lastSeen = in.readLong();
        readCounts(stats.byOriginalTopic, in);
        readCounts(stats.byConnector, in);
        readCounts(stats.byErrorClass, in);
        return stats;
    }

    private static void writeCounts(Map<String, Long> counts, DataOutputStream out) throws IOException {
        out.writeInt(counts.size());
        for (Map.Entry<String, Long> entry : counts.entrySet()) {
            out.writeUTF(entry.getKey());
            out.writeLong(entry.getValue());
        }
    }

    private static void readCounts(Map<String, Long> counts, DataInputStream in) throws IOException {
        int size = in.readInt();
        for (int i = 0; i < size; i++) {
            counts.put(in.readUTF(), in.readLong());
        }
    }
}
