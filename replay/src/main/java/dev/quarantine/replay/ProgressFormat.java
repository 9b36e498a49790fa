package dev.quarantine.replay;

import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.Properties;
import java.util.TreeMap;

/**
 * The value of a progress record (its key is the replay id, UTF-8): {@code key=value} lines, readable with
 * {@code kafka-console-consumer}, for example
 *
 * <pre>
 * format=1
 * replay.id=orders-fix
 * dlq=orders.dlq
 * state=RUNNING
 * start.0=0
 * end.0=1000
 * next.0=500
 * count.replayed=480
 * count.dead.lettered.again=3
 * count.parked=0
 * count.skipped.filter=17
 * count.skipped.truncated=0
 * count.skipped.unroutable=0
 * count.refused=0
 * count.already.replayed=0
 * written.0=0-479,497-499
 * started=2026-12-01T03:00:00Z
 * updated=2026-12-01T03:00:09Z
 * </pre>
 *
 * {@code written.<partition>} lists the ranges of {@link WrittenOffsets} ({@code from-to}, inclusive, comma-separated;
 * no line for a partition with none); {@code written.approximate=true} says they were coalesced. A record without the
 * {@code count.refused}, {@code count.already.replayed} or {@code written.*} lines (written before they existed) reads
 * as zero and none.
 *
 * <p>Bounded: {@link #fitted} keeps a record within the largest one its progress topic accepts (and
 * {@value #MAX_RECORD_BYTES} bytes, so that readers of many replays' progress hold little) by halving the number of
 * written ranges ({@link WrittenOffsets#coalesced(int)}) until it fits. Everything else in a record is bounded by the
 * dead-letter topic's partition count.
 */
final class ProgressFormat {

    static final int VERSION = 1;
    /** The largest progress record written, whatever the progress topic accepts. */
    static final int MAX_RECORD_BYTES = 256 * 1024;
    private static final String WRITTEN = "written.";
    private static final String APPROXIMATE = WRITTEN + "approximate";

    private ProgressFormat() {
    }

    static byte[] write(ReplayProgress progress) {
        StringBuilder text = new StringBuilder();
        line(text, "format", VERSION);
        line(text, "replay.id", progress.replayId());
        line(text, "dlq", progress.dlqTopic());
        line(text, "state", progress.state());
        progress.startOffsets().forEach((p, o) -> line(text, "start." + p, o));
        progress.endOffsets().forEach((p, o) -> line(text, "end." + p, o));
        progress.nextOffsets().forEach((p, o) -> line(text, "next." + p, o));
        ReplayCounts c = progress.counts();
        line(text, "count.replayed", c.replayed());
        line(text, "count.dead.lettered.again", c.deadLetteredAgain());
        line(text, "count.parked", c.parked());
        line(text, "count.skipped.filter", c.skippedByFilter());
        line(text, "count.skipped.truncated", c.skippedTruncated());
        line(text, "count.skipped.unroutable", c.skippedUnroutable());
        line(text, "count.refused", c.refused());
        line(text, "count.already.replayed", c.alreadyReplayed());
        progress.written().ranges().forEach((p, ranges) -> line(text, WRITTEN + p, String.join(",",
                ranges.stream().map(r -> r.from() + "-" + r.to()).toList())));
        if (progress.written().approximate()) {
            line(text, APPROXIMATE, true);
        }
        line(text, "started", progress.startedAt());
        line(text, "updated", progress.updatedAt());
        return text.toString().getBytes(StandardCharsets.UTF_8);
    }

    /**
     * {@code progress} with its written ranges halved ({@link WrittenOffsets#coalesced(int)}) as many times as it takes
     * for its record to be at most {@code maxBytes} long (or {@value #MAX_RECORD_BYTES}, when smaller); unchanged when
     * it fits. Halving leaves room for the next batches' ranges. When one range per partition is still too long, the
     * result is longer than {@code maxBytes}: the caller says so.
     */
    static ReplayProgress fitted(ReplayProgress progress, int maxBytes) {
        int limit = Math.min(maxBytes, MAX_RECORD_BYTES);
        ReplayProgress fitted = progress;
        while (write(fitted).length > limit) {
            WrittenOffsets written = fitted.written();
            WrittenOffsets fewer = written.coalesced(written.rangeCount() / 2);
            if (fewer.rangeCount() == written.rangeCount()) {
                return fitted;
            }
            fitted = fitted.withWritten(fewer);
        }
        return fitted;
    }

    /** @throws IllegalArgumentException when {@code value} is not a progress record of this format */
    static ReplayProgress read(byte[] value) {
        Properties p = new Properties();
        try {
            p.load(new StringReader(new String(value, StandardCharsets.UTF_8)));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        try {
            if (Integer.parseInt(p.getProperty("format", "0")) != VERSION) {
                throw new IllegalArgumentException("unknown progress format " + p.getProperty("format"));
            }
            ReplayCounts counts = new ReplayCounts(count(p, "replayed"), count(p, "dead.lettered.again"),
                    count(p, "parked"), count(p, "skipped.filter"), count(p, "skipped.truncated"),
                    count(p, "skipped.unroutable"), optionalCount(p, "refused"),
                    optionalCount(p, "already.replayed"));
            return new ReplayProgress(required(p, "replay.id"), required(p, "dlq"),
                    ReplayState.valueOf(required(p, "state")), offsets(p, "start."), offsets(p, "end."),
                    offsets(p, "next."), counts, written(p), Instant.parse(required(p, "started")),
                    Instant.parse(required(p, "updated")));
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("not a replay progress record: " + e.getMessage(), e);
        }
    }

    private static void line(StringBuilder text, String key, Object value) {
        text.append(key).append('=').append(value).append('\n');
    }

    private static String required(Properties p, String key) {
        String value = p.getProperty(key);
        if (value == null) {
            throw new IllegalArgumentException(key + " is missing");
        }
        return value;
    }

    private static long count(Properties p, String name) {
        return Long.parseLong(required(p, "count." + name));
    }

    private static long optionalCount(Properties p, String name) {
        return Long.parseLong(p.getProperty("count." + name, "0"));
    }

    private static WrittenOffsets written(Properties p) {
        Map<Integer, List<WrittenOffsets.Range>> ranges = new TreeMap<>();
        for (String key : p.stringPropertyNames()) {
            if (key.startsWith(WRITTEN) && !key.equals(APPROXIMATE)) {
                List<WrittenOffsets.Range> list = new ArrayList<>();
                for (String range : p.getProperty(key).split(",")) {
                    int dash = range.indexOf('-');
                    list.add(new WrittenOffsets.Range(Long.parseLong(range.substring(0, dash)),
                            Long.parseLong(range.substring(dash + 1))));
                }
                ranges.put(Integer.parseInt(key.substring(WRITTEN.length())), list);
            }
        }
        return WrittenOffsets.of(ranges, Boolean.parseBoolean(p.getProperty(APPROXIMATE, "false")));
    }

    private static SortedMap<Integer, Long> offsets(Properties p, String prefix) {
        SortedMap<Integer, Long> offsets = new TreeMap<>();
        for (String key : p.stringPropertyNames()) {
            if (key.startsWith(prefix)) {
                offsets.put(Integer.parseInt(key.substring(prefix.length())), Long.parseLong(p.getProperty(key)));
            }
        }
        return offsets;
    }
}
