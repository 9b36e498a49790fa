package dev.quarantine.connect.replay;

import java.util.LinkedHashMap;
import java.util.function.Supplier;
import java.util.function.ToLongFunction;

import org.apache.kafka.common.metrics.Gauge;
import org.apache.kafka.common.metrics.PluginMetrics;
import org.apache.kafka.connect.source.SourceTaskContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.quarantine.replay.ReplayProgress;
import dev.quarantine.replay.ReplayState;

/**
 * The replay's progress as gauges in the worker's plugin metrics (Kafka Connect 4.1+, KIP-877; Connect adds the
 * connector and task tags): {@code replay-done} (1 when the range is done or the replay cancelled), the counts, and
 * the offsets read of the range. Before 4.1 there are none (the progress topic, the task's log and the monitor's
 * {@code GET /dead-letters/{topic}/replays/{id}} still tell).
 */
final class ReplayMetrics {

    private static final Logger log = LoggerFactory.getLogger(ReplayMetrics.class);

    private ReplayMetrics() {
    }

    /** Registers the gauges; Connect removes plugin metrics with the task. */
    static void register(SourceTaskContext context, Supplier<ReplayProgress> progress) {
        if (!hasPluginMetrics()) {
            log.info("This worker has no plugin metrics (Kafka Connect 4.1+): the replay's progress is in its log and"
                    + " in GET /dead-letters/{topic}/replays/{id}");
            return;
        }
        PluginMetrics metrics = context.pluginMetrics();
        gauge(metrics, "replay-done", "1 when every dead letter of the replay's range was read (or it was cancelled):"
                + " the connector writes nothing more", progress, p -> p.state() == ReplayState.RUNNING ? 0 : 1);
        gauge(metrics, "replayed-total", "Dead letters written back", progress, p -> p.counts().replayed());
        gauge(metrics, "dead-lettered-again-total", "Replayed records that failed again and went back to the"
                + " dead-letter topic", progress, p -> p.counts().deadLetteredAgain());
        gauge(metrics, "parked-total", "Records that failed replay.max.attempts replays, now in the parking topic",
                progress, p -> p.counts().parked());
        gauge(metrics, "skipped-by-filter-total", "Dead letters the filters left in place", progress,
                p -> p.counts().skippedByFilter());
        gauge(metrics, "skipped-truncated-total", "Truncated dead letters left in place", progress,
                p -> p.counts().skippedTruncated());
        gauge(metrics, "skipped-unroutable-total", "Dead letters whose headers name no destination, or an illegal one",
                progress, p -> p.counts().skippedUnroutable());
        gauge(metrics, "refused-total", "Dead letters whose destination the replay may not write (Kafka-internal,"
                + " denied or not allowed): nothing written there", progress, p -> p.counts().refused());
        gauge(metrics, "already-replayed-total", "Dead letters a finished replay of the same topic already wrote",
                progress, p -> p.counts().alreadyReplayed());
        gauge(metrics, "offsets-read", "Offsets of the range read so far", progress, ReplayProgress::offsetsRead);
        gauge(metrics, "offsets-in-range", "Offsets in the replay's range", progress, ReplayProgress::offsetsInRange);
    }

    private static void gauge(PluginMetrics metrics, String name, String description, Supplier<ReplayProgress> progress,
                              ToLongFunction<ReplayProgress> value) {
        metrics.addMetric(metrics.metricName(name, description, new LinkedHashMap<>()),
                (Gauge<Long>) (config, now) -> value.applyAsLong(progress.get()));
    }

    /** Whether the worker's context has {@code pluginMetrics()} (calling it on an older worker throws). */
    private static boolean hasPluginMetrics() {
        try {
            SourceTaskContext.class.getMethod("pluginMetrics");
            return true;
        } catch (NoSuchMethodException | LinkageError e) {
            return false;
        }
    }
}
