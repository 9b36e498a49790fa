package dev.quarantine.connect.rest.aggregation;

import java.io.DataOutputStream;
import java.io.IOException;
import java.util.Map;
import java.util.TreeMap;

import org.apache.kafka.common.serialization.Serde;

import dev.quarantine.replay.letters.HeaderText;

/**
 * Totals of one dead-letter topic (in a store: of one of its partitions): the record count, first and last record
 * timestamps, and counts by original topic, by connector or application and by error class. Each breakdown keeps at
 * most {@link #MAX_KEYS} names; records beyond that are counted under {@link #OTHER}. With names of at most
 * {@link HeaderText#MAX_NAME_CHARS} characters, one value stays far below the 1 MB a changelog record may have
 * (3 x 200 x 255 characters, at most 3 UTF-8 bytes each: about 460 KB). Not thread-safe.
 */
public final class TopicStats {

    static final int MAX_KEYS = 200;
    static final String OTHER = "(other)";
    static final Serde<TopicStats> SERDE = Codec.serde(TopicStats::write, TopicStats::read);

    private long total;
    private long firstSeen = Long.MAX_VALUE;
    private long lastSeen = Long.MIN_VALUE;
    private final Map<String, Long> byOriginalTopic = new TreeMap<>();
    private final Map<String, Long> byConnector = new TreeMap<>();
    private final Map<String, Long> byErrorClass = new TreeMap<>();

    public void add(DeadLetterRecord record) {
        total++;
        firstSeen = Math.min(firstSeen, record.timestamp());
        lastSeen = Math.max(lastSeen, record.timestamp());
        count(byOriginalTopic, record.originalTopicOrUnknown(), 1);
        count(byConnector, record.connectorOrUnknown(), 1);
        count(byErrorClass, record.errorClassOrUnknown(), 1);
    }

    /**
     * Counts a record of {@code topic} that is not monitored because of the topic cap: in the total, and in
     * {@link #byOriginalTopic()} under its own (dead-letter) topic. Only for {@link DeadLetterProcessor#OVER_CAP}.
     */
    public void addUncounted(String topic, long timestamp) {
        total++;
        firstSeen = Math.min(firstSeen, timestamp);
        lastSeen = Math.max(lastSeen, timestamp);
        count(byOriginalTopic, topic, 1);
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

    public long total() {
        return total;
    }

    /** Epoch ms of the newest record, or {@code null} before the first one. */
    public Long lastSeen() {
        return total == 0 ? null : lastSeen;
    }

    public Long firstSeen() {
        return total == 0 ? null : firstSeen;
    }

    public Map<String, Long> byOriginalTopic() {
        return byOriginalTopic;
    }

    public Map<String, Long> byConnector() {
        return byConnector;
    }

    public Map<String, Long> byErrorClass() {
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

    static TopicStats read(Codec.Input in) throws IOException {
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
            Codec.writeString(entry.getKey(), out);
            out.writeLong(entry.getValue());
        }
    }

    private static void readCounts(Map<String, Long> counts, Codec.Input in) throws IOException {
        int size = in.readCount();
        for (int i = 0; i < size; i++) {
            counts.put(in.readString(), in.readLong());
        }
    }
}
