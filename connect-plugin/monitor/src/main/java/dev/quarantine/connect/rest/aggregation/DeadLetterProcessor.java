package dev.quarantine.connect.rest.aggregation;

import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import java.util.function.Supplier;

import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.processor.api.RecordMetadata;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.WindowStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.quarantine.replay.letters.HeaderText;
import dev.quarantine.txn.RecordPositions;
import dev.quarantine.connect.rest.MonitorConfig;
import dev.quarantine.connect.rest.discovery.MonitoredTopics;

/**
 * Counts one dead-letter record: its topic's totals, its one-minute window, and its slot among the recent records.
 * Runs in the task of the record's partition, so the stores hold per-partition figures.
 *
 * <p>No record can stop it: every string it keeps is bounded ({@link HeaderText}), a record whose headers cannot be
 * read at all is counted as {@link HeaderText#UNPARSEABLE}, and a topic beyond {@code maxTopics} is not kept, only
 * its records counted under {@link #OVER_CAP} (with a log line), so memory stays bounded whatever a pattern matches.
 */
public final class DeadLetterProcessor implements Processor<byte[], byte[], Void, Void> {

    /** Stats store key of the records of topics beyond the cap, by topic (not a legal topic name). */
    public static final String OVER_CAP = "~over-cap";
    private static final int MAX_WARNED = 1_000;
    /**
     * How far ahead of the worker's clock a letter's window may start and still count in the rates: the window store
     * keeps {@link MonitorTopology#WINDOW_RETENTION} before the latest window it holds, and the rates read the last
     * {@link LocalReader#HISTORY} and one window more (and a letter's window starts up to a window before it), so a
     * window this far ahead drops none of them.
     */
    static final Duration FUTURE_WINDOWS =
            MonitorTopology.WINDOW_RETENTION.minus(LocalReader.HISTORY).minus(MonitorTopology.WINDOW.multipliedBy(2));
    private static final Logger log = LoggerFactory.getLogger(DeadLetterProcessor.class);

    private final MonitorTopology.Limits limits;
    private final Supplier<MonitoredTopics> topics;
    private final Set<String> warned = new HashSet<>();
    private final Set<String> undecodable = new HashSet<>();
    private final Set<String> aheadWarned = new HashSet<>();
    private ProcessorContext<Void, Void> context;
    private KeyValueStore<String, TopicStats> stats;
    private WindowStore<String, Long> minutes;
    private KeyValueStore<String, DeadLetterRecord> recent;

    DeadLetterProcessor(MonitorTopology.Limits limits, Supplier<MonitoredTopics> topics) {
        this.limits = limits;
        this.topics = topics;
    }

    @Override
    public void init(ProcessorContext<Void, Void> context) {
        this.context = context;
        this.stats = context.getStateStore(MonitorTopology.STATS_STORE);
        this.minutes = context.getStateStore(MonitorTopology.MINUTES_STORE);
        this.recent = context.getStateStore(MonitorTopology.RECENT_STORE);
    }

    /**
     * Counts {@code record}. What the record's content could make fail (reading it, adding it to the figures) runs in
     * {@link #ours}, which throws a {@link RecordFault}; the stores' reads and writes do not: a failure of theirs is
     * Kafka's (a changelog send after a commit that timed out), and fails the stream thread ({@link RecordFaultsOnly}).
     */
    @Override
    public void process(Record<byte[], byte[]> record) {
        RecordMetadata where = context.recordMetadata().orElseThrow(() ->
                new IllegalStateException("a dead-letter record without its topic: the topology reads topics only"));
        Kept kept = kept(where.topic());
        if (!kept.present()) {
            Kept over = kept(OVER_CAP);
            if (overCap(over)) {
                TopicStats counted = ours(where, () -> {
                    TopicStats figures = over.figures() == null ? new TopicStats() : over.figures();
                    figures.addUncounted(where.topic(), record.timestamp());
                    return figures;
                });
                stats.put(OVER_CAP, counted);
                warnOverCap(where);
                return;
            }
        }
        TopicStats topicStats = kept.figures() == null ? new TopicStats() : kept.figures();
        DeadLetterRecord letter = ours(where, () -> {
            DeadLetterRecord read = read(where, record);
            topicStats.add(read);
            return read;
        });
        stats.put(letter.topic(), topicStats);
        countInWindow(letter);
        long slot = (topicStats.total() - 1) % limits.recentRecords();
        recent.put(MonitorTopology.recentKey(letter.topic(), slot), letter);
    }

    /** Runs what a record's content may make fail; its failure is the record's: a {@link RecordFault}. */
    private static <T> T ours(RecordMetadata where, Supplier<T> step) {
        try {
            return step.get();
        } catch (RuntimeException e) {
            throw new RecordFault(position(where), e);
        }
    }

    private DeadLetterRecord read(RecordMetadata where, Record<byte[], byte[]> record) {
        String hint = topics.get().connectorOf(where.topic());
        try {
            return DeadLetterRecord.parse(where.topic(), where.partition(), where.offset(), record.timestamp(),
                    record.key(), record.value(), record.headers(), hint, limits.keepPayload(),
                    limits.payloadMaxBytes());
        } catch (RuntimeException e) {
            log.warn("Dead-letter monitor: the headers of {} could not be read ({}); counted as {}",
                    position(where), e.getClass().getName(), HeaderText.UNPARSEABLE);
            return DeadLetterRecord.unparseable(where.topic(), where.partition(), where.offset(), record.timestamp(),
                    hint);
        }
    }

    private static String position(RecordMetadata where) {
        return RecordPositions.of(where.topic(), where.partition(), where.offset());
    }

    /** What is kept under a key of the stats store: whether there is a value, and its figures when it decodes. */
    private record Kept(boolean present, TopicStats figures) {
    }

    /**
     * The figures kept under {@code key}. A stored value that does not decode (written by a newer release of the
     * monitor during a rolling upgrade, or by something else) counts as present without figures: logged at ERROR once
     * per key, and counting starts again from this letter, whose figures replace it. Skipping the letter instead would
     * skip every later letter of the topic the same way, for good.
     */
    private Kept kept(String key) {
        try {
            TopicStats figures = stats.get(key);
            return new Kept(figures != null, figures);
        } catch (SerializationException e) {
            if (undecodable.size() < MAX_WARNED && undecodable.add(key)) {
                log.error("Dead-letter monitor: the figures kept for {} do not decode ({}; written by a newer"
                        + " release?); counting {} again from its next dead letter", key, e.getMessage(), key);
            }
            return new Kept(true, null);
        }
    }

    /** Whether the topics kept are at the cap, {@code over} being what is kept under {@link #OVER_CAP}. */
    private boolean overCap(Kept over) {
        long held = stats.approximateNumEntries() - (over.present() ? 1 : 0);
        return held >= limits.maxTopics();
    }

    private void warnOverCap(RecordMetadata where) {
        if (warned.size() < MAX_WARNED && warned.add(where.topic())) {
            log.warn("Dead-letter monitor: not keeping figures of topic {} (partition {}): this worker already"
                    + " monitors {} topics; raise {} to monitor more", where.topic(), where.partition(),
                    limits.maxTopics(), MonitorConfig.MAX_TOPICS_CONFIG);
        }
    }

    private void countInWindow(DeadLetterRecord letter) {
        long windowMs = MonitorTopology.WINDOW.toMillis();
        long start = letter.timestamp() - Math.floorMod(letter.timestamp(), windowMs);
        long now = context.currentSystemTimeMs();
        if (start + windowMs < now - MonitorTopology.WINDOW_RETENTION.toMillis()) {
            return; // older than any rate the monitor shows
        }
        if (start > now + FUTURE_WINDOWS.toMillis()) {
            // dated so far ahead of this worker's clock (a producer's clock, or anyone who may write a DLQ) that the
            // window store, taking its time as the present, would drop windows the rates read, of every topic of this
            // partition number: counted in the totals only
            if (aheadWarned.size() < MAX_WARNED && aheadWarned.add(letter.topic())) {
                log.warn("Dead-letter monitor: a dead letter of {} is dated {} ms ahead of this worker's clock;"
                        + " counted, but left out of the rates (as is any letter of a topic dated more than {} ahead)",
                        letter.topic(), letter.timestamp() - now, FUTURE_WINDOWS);
            }
            return;
        }
        Long count = minutes.fetch(letter.topic(), start);
        minutes.put(letter.topic(), count == null ? 1L : count + 1, start);
    }
}
