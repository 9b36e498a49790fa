package dev.quarantine.connect.rest;

import java.util.function.Supplier;

import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.processor.api.RecordMetadata;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.WindowStore;

/**
 * Counts one dead-letter record: its topic's totals, its one-minute window, and its slot among the recent records.
 * Runs in the task of the record's partition, so the stores hold per-partition figures.
 */
final class DeadLetterProcessor implements Processor<byte[], byte[], Void, Void> {

    private final int recentRecords;
    private final boolean keepPayload;
    private final int payloadMaxBytes;
    private final Supplier<MonitoredTopics> topics;
    private ProcessorContext<Void, Void> context;
    private KeyValueStore<String, TopicStats> stats;
    private WindowStore<String, Long> minutes;
    private KeyValueStore<String, DeadLetterRecord> recent;

    DeadLetterProcessor(int recentRecords, boolean keepPayload, int payloadMaxBytes, Supplier<MonitoredTopics> topics) {
        this.recentRecords = recentRecords;
        this.keepPayload = keepPayload;
        this.payloadMaxBytes = payloadMaxBytes;
        this.topics = topics;
    }

    @Override
    public void init(ProcessorContext<Void, Void> context) {
        this.context = context;
        this.stats = context.getStateStore(MonitorTopology.STATS_STORE);
        this.minutes = context.getStateStore(MonitorTopology.MINUTES_STORE);
        this.recent = context.getStateStore(MonitorTopology.RECENT_STORE);
    }

    @Override
    public void process(Record<byte[], byte[]> record) {
        RecordMetadata where = context.recordMetadata().orElseThrow(() ->
                new IllegalStateException("a dead-letter record without its topic: the topology reads topics only"));
        DeadLetterRecord letter = DeadLetterRecord.parse(where.topic(), where.partition(), where.offset(),
                record.timestamp(), record.key(), record.value(), record.headers(),
                topics.get().connectorOf(where.topic()), keepPayload, payloadMaxBytes);
        TopicStats topicStats = stats.get(letter.topic());
        if (topicStats == null) {
            topicStats = new TopicStats();
        }
        topicStats.add(letter);
        stats.put(letter.topic(), topicStats);
        countInWindow(letter);
        long slot = (topicStats.total() - 1) % recentRecords;
        recent.put(MonitorTopology.recentKey(letter.topic(), slot), letter);
    }

    private void countInWindow(DeadLetterRecord letter) {
        long windowMs = MonitorTopology.WINDOW.toMillis();
        long start = letter.timestamp() - Math.floorMod(letter.timestamp(), windowMs);
        if (start + windowMs < context.currentSystemTimeMs() - MonitorTopology.WINDOW_RETENTION.toMillis()) {
            return; // older than any rate the monitor shows
        }
        Long count = minutes.fetch(letter.topic(), start);
        minutes.put(letter.topic(), count == null ? 1L : count + 1, start);
    }
}
