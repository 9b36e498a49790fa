package dev.quarantine.connect.rest.aggregation;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.QueryableStoreTypes;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;
import org.apache.kafka.streams.state.ReadOnlyWindowStore;
import org.apache.kafka.streams.state.WindowStoreIterator;

import dev.quarantine.streams.query.QueryOutcome;
import dev.quarantine.streams.query.StoreQueries;

/**
 * Reads one partition of the aggregation from this worker's stores, every read through {@link StoreQueries}: a store
 * that is not ready is asked again until the retry deadline; the error that remains is one of StoreQueries' three
 * (retryable, migrated with its owner, fatal), thrown for the caller to turn into an answer.
 */
public final class LocalReader {

    /** How far back the per-minute counts go (the longest rate shown). */
    static final Duration HISTORY = Duration.ofMinutes(15);

    private final StoreQueries queries;
    private final Duration retry;

    public LocalReader(StoreQueries queries, Duration retry) {
        this.queries = queries;
        this.retry = retry.isZero() ? Duration.ofMillis(1) : retry;
    }

    /**
     * The figures of {@code partition}, as of {@code nowMs}.
     *
     * @throws org.apache.kafka.streams.errors.InvalidStateStoreException one of StoreQueries' classified exceptions
     */
    public PartitionFigures read(int partition, PartitionFigures.Query query, long nowMs) {
        QueryOutcome<PartitionFigures> outcome = queries.retrying(retry).call(() -> readOnce(partition, query, nowMs));
        if (outcome.isMigrated()) {
            throw outcome.migration().orElseThrow();
        }
        return outcome.value();
    }

    private PartitionFigures readOnce(int partition, PartitionFigures.Query query, long nowMs) {
        PartitionFigures partial = new PartitionFigures();
        partial.partitions().add(partition);
        ReadOnlyKeyValueStore<String, TopicStats> stats = queries.store(StoreQueryParameters
                .fromNameAndType(MonitorTopology.STATS_STORE, QueryableStoreTypes.<String, TopicStats>keyValueStore())
                .withPartition(partition));
        if (query.topic() == null) {
            try (KeyValueIterator<String, TopicStats> all = stats.all()) {
                all.forEachRemaining(entry -> partial.addStats(entry.key, entry.value));
            }
        } else {
            for (String key : List.of(query.topic(), DeadLetterProcessor.OVER_CAP)) {
                TopicStats one = stats.get(key);
                if (one != null) {
                    partial.addStats(key, one);
                }
            }
        }
        readMinutes(partition, partial, nowMs);
        if (query.records() > 0 && query.topic() != null) {
            partial.addRecords(recent(partition, query.topic()), query.records());
        }
        return partial;
    }

    private void readMinutes(int partition, PartitionFigures partial, long nowMs) {
        ReadOnlyWindowStore<String, Long> minutes = queries.store(StoreQueryParameters
                .fromNameAndType(MonitorTopology.MINUTES_STORE, QueryableStoreTypes.<String, Long>windowStore())
                .withPartition(partition));
        long from = nowMs - HISTORY.toMillis() - MonitorTopology.WINDOW.toMillis();
        for (String topic : List.copyOf(partial.stats().keySet())) {
            if (topic.equals(DeadLetterProcessor.OVER_CAP)) {
                continue;
            }
            try (WindowStoreIterator<Long> windows = minutes.fetch(topic, java.time.Instant.ofEpochMilli(from),
                    java.time.Instant.ofEpochMilli(nowMs))) {
                while (windows.hasNext()) {
                    KeyValue<Long, Long> window = windows.next();
                    partial.addMinute(topic, window.key, window.value);
                }
            }
        }
    }

    private List<DeadLetterRecord> recent(int partition, String topic) {
        ReadOnlyKeyValueStore<String, DeadLetterRecord> recent = queries.store(StoreQueryParameters
                .fromNameAndType(MonitorTopology.RECENT_STORE,
                        QueryableStoreTypes.<String, DeadLetterRecord>keyValueStore())
                .withPartition(partition));
        List<DeadLetterRecord> records = new ArrayList<>();
        try (KeyValueIterator<String, DeadLetterRecord> range = recent.range(MonitorTopology.recentFrom(topic),
                MonitorTopology.recentTo(topic))) {
            range.forEachRemaining(entry -> records.add(entry.value));
        }
        return records;
    }
}
