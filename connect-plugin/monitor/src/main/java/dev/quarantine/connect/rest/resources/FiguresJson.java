package dev.quarantine.connect.rest.resources;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

import dev.quarantine.txn.RecordPositions;
import dev.quarantine.connect.rest.aggregation.DeadLetterProcessor;
import dev.quarantine.connect.rest.aggregation.DeadLetterRecord;
import dev.quarantine.connect.rest.aggregation.LocalReader;
import dev.quarantine.connect.rest.MonitorConfig;
import dev.quarantine.connect.rest.aggregation.MonitorTopology;
import dev.quarantine.connect.rest.aggregation.PartitionFigures;
import dev.quarantine.connect.rest.aggregation.TopicStats;

/**
 * The JSON shapes of the answers, as maps and lists, from cluster-wide figures. Times are ISO-8601 UTC; rates are
 * records per second.
 */
public final class FiguresJson {

    private static final long MINUTE_MS = MonitorTopology.WINDOW.toMillis();

    private FiguresJson() {
    }

    /** {@code GET /dead-letters}: every topic with its total, last record, rates and per-minute counts. */
    static Map<String, Object> summary(SortedSet<String> topics, PartitionFigures figures, long nowMs) {
        List<Object> rows = new ArrayList<>();
        SortedSet<String> all = new TreeSet<>(topics);
        all.addAll(figures.stats().keySet());
        all.remove(DeadLetterProcessor.OVER_CAP);
        long total = 0;
        for (String topic : all) {
            Map<String, Object> row = topicHeader(topic, figures, nowMs);
            total += (long) row.get("total");
            row.put("per_minute", perMinute(topic, figures));
            rows.add(row);
        }
        Map<String, Object> body = new LinkedHashMap<>();
        completeness(body, figures);
        body.put("total", total);
        body.put("topics", rows);
        TopicStats over = figures.stats().get(DeadLetterProcessor.OVER_CAP);
        if (over != null) {
            Map<String, Object> capped = new LinkedHashMap<>();
            capped.put("records_not_kept", over.total());
            capped.put("topics_not_kept", over.byOriginalTopic().keySet());
            body.put("capped", capped);
        }
        return body;
    }

    /**
     * {@code body} with {@code "catching_up": {"records_behind_on_this_worker": n}} while this worker's aggregation
     * still has dead letters to read (the figures are rising towards the truth).
     */
    static Map<String, Object> catchingUp(Map<String, Object> body, java.util.OptionalLong recordsBehind) {
        recordsBehind.ifPresent(behind -> body.put("catching_up", Map.of("records_behind_on_this_worker", behind)));
        return body;
    }

    /**
     * {@code complete}, and when the figures lack partitions (other workers not trusted, no peer secret) which ones
     * and why.
     */
    private static void completeness(Map<String, Object> body, PartitionFigures figures) {
        body.put("complete", figures.missing().isEmpty());
        if (!figures.missing().isEmpty()) {
            body.put("missing_partitions", figures.missing());
            body.put("incomplete_because", "other workers run the monitor and " + MonitorConfig.PEER_SECRET_CONFIG
                    + " is not set: this worker shows only its own share");
        }
    }

    /** {@code GET /dead-letters/{topic}}: the totals and their breakdowns, and the per-minute counts. */
    static Map<String, Object> detail(String topic, PartitionFigures figures, long nowMs) {
        Map<String, Object> body = new LinkedHashMap<>();
        completeness(body, figures);
        body.putAll(topicHeader(topic, figures, nowMs));
        TopicStats over = figures.stats().get(DeadLetterProcessor.OVER_CAP);
        if (over != null && over.byOriginalTopic().containsKey(topic)) {
            body.put("capped", Map.of("records_not_kept", over.byOriginalTopic().get(topic)));
        }
        TopicStats stats = figures.stats().getOrDefault(topic, new TopicStats());
        body.put("first_seen", time(stats.firstSeen()));
        body.put("by_original_topic", stats.byOriginalTopic());
        body.put("by_connector_or_application", stats.byConnector());
        body.put("by_error_class", stats.byErrorClass());
        body.put("per_minute", perMinute(topic, figures));
        return body;
    }

    /**
     * The one-minute windows of the last {@link LocalReader#HISTORY} that hold records, oldest first (at most 17: the
     * reader fetches no older ones): {@code [{"start": ..., "count": ...}]}.
     */
    private static List<Object> perMinute(String topic, PartitionFigures figures) {
        List<Object> minutes = new ArrayList<>();
        figures.minutes().getOrDefault(topic, new TreeMap<>()).forEach((start, count) -> {
            Map<String, Object> window = new LinkedHashMap<>();
            window.put("start", time(start));
            window.put("count", count);
            minutes.add(window);
        });
        return minutes;
    }

    /**
     * {@code GET /dead-letters/{topic}/records}: the {@code limit} newest records; payloads and error messages (which
     * often quote the payload) only when exposed.
     */
    static Map<String, Object> records(String topic, PartitionFigures figures, boolean exposePayload, int limit) {
        List<Object> rows = new ArrayList<>();
        for (DeadLetterRecord r : figures.records().subList(0, Math.min(limit, figures.records().size()))) {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("topic", r.topic());
            row.put("partition", r.partition());
            row.put("offset", r.offset());
            row.put("position", RecordPositions.of(r.topic(), r.partition(), r.offset()));
            row.put("timestamp", time(r.timestamp()));
            row.put("format", r.format());
            row.put("error_class", r.errorClass());
            if (exposePayload) {
                row.put("error_message", r.errorMessage());
            }
            Map<String, Object> original = new LinkedHashMap<>();
            original.put("topic", r.originalTopic());
            original.put("partition", r.originalPartition());
            original.put("offset", r.originalOffset());
            original.put("position", r.originalTopic() == null || r.originalPartition() == null
                    || r.originalOffset() == null ? null
                    : RecordPositions.of(r.originalTopic(), r.originalPartition(), r.originalOffset()));
            row.put("original", original);
            row.put("connector_or_application", r.connector());
            row.put("task", r.task());
            row.put("stage", r.stage());
            row.put("key_size", r.keySize() < 0 ? null : r.keySize());
            row.put("value_size", r.valueSize() < 0 ? null : r.valueSize());
            row.put("original_size", r.originalSize());
            if (exposePayload) {
                row.put("key_base64", r.key() == null ? null : Base64.getEncoder().encodeToString(r.key()));
                row.put("value_base64", r.value() == null ? null : Base64.getEncoder().encodeToString(r.value()));
            }
            rows.add(row);
        }
        Map<String, Object> body = new LinkedHashMap<>();
        completeness(body, figures);
        body.put("topic", topic);
        body.put("records", rows);
        return body;
    }

    /**
     * Records per second over the last {@code minutes} minutes, from one-minute counts: a window partly inside the
     * period counts in proportion (records assumed spread evenly over their minute).
     */
    public static double rate(SortedMap<Long, Long> windows, long nowMs, int minutes) {
        long periodMs = minutes * MINUTE_MS;
        long from = nowMs - periodMs;
        double count = 0;
        for (Map.Entry<Long, Long> window : windows.entrySet()) {
            long start = window.getKey();
            long end = start + MINUTE_MS;
            if (end <= from || start > nowMs) {
                continue;
            }
            double inside = start >= from ? 1.0 : (double) (end - from) / MINUTE_MS;
            count += window.getValue() * inside;
        }
        return Math.round(count / (periodMs / 1000.0) * 1000.0) / 1000.0;
    }

    private static Map<String, Object> topicHeader(String topic, PartitionFigures figures, long nowMs) {
        TopicStats stats = figures.stats().getOrDefault(topic, new TopicStats());
        SortedMap<Long, Long> windows = figures.minutes().getOrDefault(topic, new TreeMap<>());
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("topic", topic);
        row.put("total", stats.total());
        row.put("last_seen", time(stats.lastSeen()));
        row.put("rate_1m", rate(windows, nowMs, 1));
        row.put("rate_15m", rate(windows, nowMs, 15));
        return row;
    }

    private static String time(Long epochMs) {
        return epochMs == null ? null : Instant.ofEpochMilli(epochMs).toString();
    }
}
