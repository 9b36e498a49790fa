package dev.quarantine.connect.rest.aggregation;

import java.time.Duration;
import java.util.function.Supplier;

import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.AutoOffsetReset;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.state.Stores;
import dev.quarantine.connect.rest.MonitorConfig;
import dev.quarantine.connect.rest.discovery.MonitoredTopics;

/**
 * The aggregation: every record of the monitored topics goes to {@link DeadLetterProcessor}, which keeps three
 * in-memory stores (backed by changelog topics, so a moved task restores them), at each letter's
 * {@link LetterTimestamp}. No repartitioning: the task for
 * partition p of every monitored topic holds that partition's figures, and a request adds up all tasks.
 */
public final class MonitorTopology {

    /** Per topic: {@link TopicStats}. */
    static final String STATS_STORE = "dead-letter-stats";
    /** Per topic: record counts in one-minute windows. */
    static final String MINUTES_STORE = "dead-letter-minutes";
    /** Per topic and slot ({@code topic|slot}): the most recent {@link DeadLetterRecord}s, a ring per partition. */
    static final String RECENT_STORE = "dead-letter-recent";
    public static final Duration WINDOW = Duration.ofMinutes(1);
    static final Duration WINDOW_RETENTION = Duration.ofMinutes(60);

    private static final String SOURCE = "dead-letter-topics";
    private static final String PROCESSOR = "dead-letter-aggregation";

    /**
     * What the aggregation keeps, at most: {@code recentRecords} per topic partition, payloads (and error messages)
     * only when {@code keepPayload}, {@code payloadMaxBytes} of each key and value, {@code maxTopics} topics per
     * partition number (task).
     */
    public record Limits(int recentRecords, boolean keepPayload, int payloadMaxBytes, int maxTopics) {

        static Limits of(MonitorConfig config) {
            return new Limits(config.recentRecords(), config.exposePayload(), config.payloadMaxBytes(),
                    config.maxTopics());
        }
    }

    private MonitorTopology() {
    }

    public static Topology build(MonitoredTopics topics, Limits limits, Supplier<MonitoredTopics> current) {
        Topology topology = new Topology();
        topology.addSource(AutoOffsetReset.earliest(), SOURCE, new LetterTimestamp(), Serdes.ByteArray().deserializer(),
                Serdes.ByteArray().deserializer(), topics.subscription());
        topology.addProcessor(PROCESSOR, () -> new DeadLetterProcessor(limits, current), SOURCE);
        topology.addStateStore(Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore(STATS_STORE),
                Serdes.String(), TopicStats.SERDE).withCachingDisabled(), PROCESSOR);
        topology.addStateStore(Stores.windowStoreBuilder(Stores.inMemoryWindowStore(MINUTES_STORE, WINDOW_RETENTION,
                WINDOW, false), Serdes.String(), Serdes.Long()).withCachingDisabled(), PROCESSOR);
        topology.addStateStore(Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore(RECENT_STORE),
                Serdes.String(), DeadLetterRecord.SERDE).withCachingDisabled(), PROCESSOR);
        return topology;
    }

    /** The key of slot {@code slot} of {@code topic}'s recent records. */
    static String recentKey(String topic, long slot) {
        return topic + "|" + String.format("%04d", slot);
    }

    /** The first key of {@code topic}'s recent records. */
    static String recentFrom(String topic) {
        return topic + "|";
    }

    /** Just past the last key of {@code topic}'s recent records ('}' follows '|'; neither is legal in a topic). */
    static String recentTo(String topic) {
        return topic + "}";
    }
}
