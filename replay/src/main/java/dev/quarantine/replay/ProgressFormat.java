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

import org.apache.kafka.common.Uuid;

/**
 * The value of a progress record (its key is the replay id, UTF-8): {@code key=value} lines, readable with
 * {@code kafka-console-consumer}, for example
 *
 * <pre>
 * format=2
 * replay.id=orders-fix
 * dlq=orders.dlq
 * dlq.id=Vh6F2mYbRfaH0u1kQ2cJ0w
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
 * {@code dlq.id} is the dead-letter topic's id when the replay captured its range ({@code AAAAAAAAAAAAAAAAAAAAAA}
 * when it captured none), required: finished replays count as having written a dead letter only for a topic of the
 * same name and id.
 * {@code written.<partition>} lists the open ranges of {@link WrittenOffsets} ({@code from-to}, inclusive,
 * comma-separated; no line for a partition with none); {@code written.segments=<n>} and
 * {@code written.sealed=<m>} (only when n &gt; 0) say that m more ranges were sealed into n segment records, keyed {@code <replay.id>/written/<i>} for i from 0 to n-1, in the
 * same progress topic:
 *
 * <pre>
 * format=2
 * segment.of=orders-fix
 * dlq=orders.dlq
 * segment=0
 * written.0=0-0,2-2,4-4
 * </pre>
 *
 * <p>Bounded: {@link #fitted} keeps every record within the largest one its progress topic accepts (and
 * {@value #MAX_RECORD_BYTES} bytes): when the progress record would be longer, its open ranges move into new segment
 * records, each within the same bound, committed in the same transaction. The ranges stay exact (a dead letter that
 * was not written is in none), so a replay's written ranges take as many segment records as they need. Everything
 * else in a progress record is bounded by the dead-letter topic's partition count. Format 2 is the first of a
 * release; records of another format are not read.
 */
final class ProgressFormat {

    static final int VERSION = 2;
    /** The largest progress record written, whatever the progress topic accepts. */
    static final int MAX_RECORD_BYTES = 256 * 1024;
    private static final String WRITTEN = "written.";
    private static final String SEGMENTS = WRITTEN + "segments";
    private static final String SEALED = WRITTEN + "sealed";
    private static final String SEGMENT_KEY = "/written/";
    private static final String SEGMENT_OF = "segment.of";
    private static final String SEGMENT = "segment";

    /** A segment record: its key and value. */
    record Segment(String key, byte[] value) {
    }

    /** A progress ready to commit: the progress record's content and the segment records to write with it. */
    record Fitted(ReplayProgress progress, List<Segment> segments) {
    }

    private ProgressFormat() {
    }

    static byte[] write(ReplayProgress progress) {
        StringBuilder text = new StringBuilder();
        line(text, "format", VERSION);
        line(text, "replay.id", progress.replayId());
        line(text, "dlq", progress.dlqTopic());
        line(text, "dlq.id", progress.dlqTopicId());
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
        writtenLines(text, progress.written().ranges());
        if (progress.written().segments() > 0) {
            line(text, SEGMENTS, progress.written().segments());
            line(text, SEALED, progress.written().sealedCount());
        }
        line(text, "started", progress.startedAt());
        line(text, "updated", progress.updatedAt());
        return text.toString().getBytes(StandardCharsets.UTF_8);
    }

    private static void writtenLines(StringBuilder text, Map<Integer, List<WrittenOffsets.Range>> ranges) {
        ranges.forEach((p, list) -> line(text, WRITTEN + p, String.join(",",
                list.stream().map(ProgressFormat::range).toList())));
    }

    private static String range(WrittenOffsets.Range range) {
        return range.from() + "-" + range.to();
    }

    /**
     * {@code progress} ready to commit within {@code maxBytes} (or {@value #MAX_RECORD_BYTES}, when smaller): itself
     * when its record fits; otherwise its open written ranges sealed into as many segment records as they need, each
     * within the limit, and the progress without them. When the progress is still too long without any range, the
     * result is longer than {@code maxBytes}: the caller says so.
     */
    static Fitted fitted(ReplayProgress progress, int maxBytes) {
        int limit = Math.min(maxBytes, MAX_RECORD_BYTES);
        if (write(progress).length <= limit) {
            return new Fitted(progress, List.of());
        }
        WrittenOffsets written = progress.written();
        List<Segment> segments = new ArrayList<>();
        SortedMap<Integer, List<WrittenOffsets.Range>> chunk = new TreeMap<>();
        int size = segmentHeader(progress, written.segments()).length();
        for (Map.Entry<Integer, List<WrittenOffsets.Range>> entry : written.ranges().entrySet()) {
            for (WrittenOffsets.Range range : entry.getValue()) {
                int more = range(range).length() + 1
                        + (chunk.containsKey(entry.getKey()) ? 0 : (WRITTEN + entry.getKey() + "=").length());
                if (size + more > limit && !chunk.isEmpty()) {
                    segments.add(segment(progress, written.segments() + segments.size(), chunk));
                    chunk = new TreeMap<>();
                    size = segmentHeader(progress, written.segments() + segments.size()).length();
                    more = range(range).length() + 1 + (WRITTEN + entry.getKey() + "=").length();
                }
                chunk.computeIfAbsent(entry.getKey(), p -> new ArrayList<>()).add(range);
                size += more;
            }
        }
        if (!chunk.isEmpty()) {
            segments.add(segment(progress, written.segments() + segments.size(), chunk));
        }
        return new Fitted(progress.withWritten(written.sealedInto(segments.size())), List.copyOf(segments));
    }

    private static String segmentHeader(ReplayProgress progress, int index) {
        StringBuilder text = new StringBuilder();
        line(text, "format", VERSION);
        line(text, SEGMENT_OF, progress.replayId());
        line(text, "dlq", progress.dlqTopic());
        line(text, SEGMENT, index);
        return text.toString();
    }

    private static Segment segment(ReplayProgress progress, int index,
                                   Map<Integer, List<WrittenOffsets.Range>> ranges) {
        StringBuilder text = new StringBuilder(segmentHeader(progress, index));
        writtenLines(text, ranges);
        return new Segment(segmentKey(progress.replayId(), index), text.toString().getBytes(StandardCharsets.UTF_8));
    }

    /** The key of segment {@code index} of replay {@code replayId}. */
    static String segmentKey(String replayId, int index) {
        return replayId + SEGMENT_KEY + index;
    }

    /** Whether {@code key} is a segment record's (a replay id never holds a '/'). */
    static boolean isSegmentKey(String key) {
        return key.contains(SEGMENT_KEY);
    }

    /** A segment record read: segment {@code index} of replay {@code replayId} of {@code dlqTopic}, its ranges. */
    record SegmentRanges(String replayId, String dlqTopic, int index, Map<Integer, List<WrittenOffsets.Range>> ranges) {
    }

    /**
     * The written ranges of the segment record keyed {@code key}, and the replay it belongs to.
     *
     * @throws IllegalArgumentException when it is not a segment record of this format, or not the one its key names
     */
    static SegmentRanges readSegment(String key, byte[] value) {
        Properties p = properties(value);
        try {
            String owner = key.substring(0, key.indexOf(SEGMENT_KEY));
            int index = Integer.parseInt(key.substring(key.indexOf(SEGMENT_KEY) + SEGMENT_KEY.length()));
            if (Integer.parseInt(p.getProperty("format", "0")) != VERSION) {
                throw new IllegalArgumentException("unknown progress format " + p.getProperty("format"));
            }
            if (!owner.equals(required(p, SEGMENT_OF)) || index != Integer.parseInt(required(p, SEGMENT))) {
                throw new IllegalArgumentException("keyed as another segment than its own");
            }
            return new SegmentRanges(owner, required(p, "dlq"), index, ranges(p));
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("not a replay segment record: " + e.getMessage(), e);
        }
    }

    /** @throws IllegalArgumentException when {@code value} is not a progress record of this format */
    static ReplayProgress read(byte[] value) {
        Properties p = properties(value);
        try {
            if (Integer.parseInt(p.getProperty("format", "0")) != VERSION) {
                throw new IllegalArgumentException("unknown progress format " + p.getProperty("format"));
            }
            ReplayCounts counts = new ReplayCounts(count(p, "replayed"), count(p, "dead.lettered.again"),
                    count(p, "parked"), count(p, "skipped.filter"), count(p, "skipped.truncated"),
                    count(p, "skipped.unroutable"), count(p, "refused"), count(p, "already.replayed"));
            return new ReplayProgress(required(p, "replay.id"), required(p, "dlq"), Uuid.fromString(required(p,
                    "dlq.id")), ReplayState.valueOf(required(p, "state")), offsets(p, "start."), offsets(p, "end."),
                    offsets(p, "next."), counts, written(p), Instant.parse(required(p, "started")),
                    Instant.parse(required(p, "updated")));
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("not a replay progress record: " + e.getMessage(), e);
        }
    }

    private static Properties properties(byte[] value) {
        Properties p = new Properties();
        try {
            p.load(new StringReader(new String(value, StandardCharsets.UTF_8)));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return p;
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

    private static WrittenOffsets written(Properties p) {
        int segments = Integer.parseInt(p.getProperty(SEGMENTS, "0"));
        return WrittenOffsets.of(ranges(p)).withSegments(segments, segments == 0 ? 0
                : Long.parseLong(required(p, SEALED)));
    }

    private static Map<Integer, List<WrittenOffsets.Range>> ranges(Properties p) {
        Map<Integer, List<WrittenOffsets.Range>> ranges = new TreeMap<>();
        for (String key : p.stringPropertyNames()) {
            if (key.startsWith(WRITTEN) && !key.equals(SEGMENTS) && !key.equals(SEALED)) {
                List<WrittenOffsets.Range> list = new ArrayList<>();
                for (String range : p.getProperty(key).split(",")) {
                    int dash = range.indexOf('-');
                    list.add(new WrittenOffsets.Range(Long.parseLong(range.substring(0, dash)),
                            Long.parseLong(range.substring(dash + 1))));
                }
                ranges.put(Integer.parseInt(key.substring(WRITTEN.length())), list);
            }
        }
        return ranges;
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
