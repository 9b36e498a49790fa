package dev.quarantine.connect.sink.progress;

import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.TreeMap;

import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;

/**
 * A source partition's progress as a record of the progress topic, written in the transaction whose output it
 * follows. The key is the partition's transactional id (UTF-8), so compaction keeps the last record of each
 * partition; the value is {@code key=value} lines, readable with {@code kafka-console-consumer}, for example
 *
 * <pre>
 * format=1
 * from=1001
 * next=1043
 * source=orders-3
 * source.topic.id=b2xkT3JkZXJzVG9waWMxMg
 * target.partitions.copy.orders=2
 * topic.id=Q2xvdWRlUHJvZ3Jlc3MxMg
 * </pre>
 *
 * <p>{@code next} is the next source offset to write; {@code from} the first source offset of the records the
 * transaction covered (so it covered [from, next); a transaction of the progress alone keeps the {@code from} of the
 * last one that wrote records, and an intent to redo has {@code from} = {@code next}); {@code redo.end} and
 * {@code redo.partitions}, together or not at all, a redo still to finish ({@link RedoRange}); {@code source.topic.id} the id of the source topic those
 * offsets belong to (absent when the source cluster did not show the topic), so a source topic deleted and created
 * again is not resumed at the old topic's offsets; {@code target.partitions.<topic>} the partition count
 * {@code target.partition.mapping} mapped this partition's records into that target topic by, kept so that a key
 * stays in its target partition when the target topic gains partitions; {@code topic.id} the id of the progress
 * topic the writer knew, so a record that landed in a topic created again under a running writer (a broker with
 * auto.create.topics.enable=true re-creates a deleted topic at the first send) is recognised when it is read.
 * Readers reject a format they do not know rather than guess. {@code from} and the redo lines are part of format 1:
 * nothing was released with format 1 before them, so no reader of format 1 ignores them. {@code leftOpen} is not
 * part of the record: it is the id's {@link CommitCompletion}, a record of its own that {@link ProgressLog} reads with
 * it.
 *
 * <p>Ownership lines (docs/design/sink-ownership.md, issue 23 step 2; read here, written by the running sink from
 * step 4c on): {@code holder} and {@code claim}, together or not at all, the id that wrote the record and the offset
 * of its claim on partition 1 ({@link OwnershipRecord}); and per partition {@code tp} that the last transaction of
 * this source partition writing {@code tp} wrote, {@code written.<tp>=<first>,<end>,<from>} (rule V, 2.7.1): the
 * offset of its first record on {@code tp}, the offset after its last one, and that transaction's {@code from}.
 * Readers of each version meet records of the other:
 *
 * <table>
 * <caption>Mixed versions on one progress topic</caption>
 * <tr><th>reader</th><th>record</th><th>what the reader does</th></tr>
 * <tr><td>a task before this step (main at 985011d)</td><td>with ownership lines</td><td>reads {@code from},
 *     {@code next} and the rest as before and ignores the lines it does not know (format 1 allows unknown lines,
 *     {@code readsLinesItDoesNotKnowWithinFormatOne}); its next record of the partition has no ownership lines, so the
 *     {@code written} lines of the earlier record are not carried over</td></tr>
 * <tr><td>this version</td><td>without ownership lines (every record today's sink writes)</td><td>reads it with no
 *     holder and no {@code written} lines: nothing to check, as before. From step 4c on a record without
 *     {@code claim} is refused (design 2.7, "Migration: none")</td></tr>
 * <tr><td>this version</td><td>of a later version, with {@code written.*} keys or value fields this version does not
 *     know</td><td>ignores them by format 1's rule and reads the {@code written.<tp>} lines it knows, their first three
 *     fields ({@link ProgressRecordLines}); a later version that changes what those mean writes a new
 *     {@code format}</td></tr>
 * <tr><td>a task from a46fa6c until the {@code id=} field</td><td>with {@code ,id=<topic id>} after a line's three
 *     offsets</td><td>ignores the field by the row above (reads the line by its offsets; its next record carries
 *     the line without the id, which only removes the check by id). A task between 5aed3b0 and a46fa6c (never
 *     released) required exactly three fields and would refuse the record</td></tr>
 * </table>
 */
public record ProgressRecord(long from, long next, Uuid topicId, Optional<Uuid> sourceTopicId,
                      Map<String, Integer> targetPartitions, Optional<RedoRange> redo,
                      Optional<Holder> holder, Map<TopicPartition, Written> written,
                      Optional<CommitCompletion> leftOpen) {

    /** The id that wrote the record and the offset of the claim it wrote it under. */
    public record Holder(String id, long claim) {

        /** @throws IllegalArgumentException when {@code id} is not a task slot's or offsets id, or claim is negative */
        public Holder {
            OwnershipRecord.requireId(id);
            if (claim < 0) {
                throw new IllegalArgumentException(ProgressRecordLines.CLAIM + " " + claim + " is not an offset");
            }
        }
    }

    /**
     * Where the last transaction of the source partition that wrote a partition put its records there:
     * {@code [first, end)}, that transaction's {@code from}, and the id of the partition's topic as the writer knew it
     * (empty when it did not, or the record is older): offsets of a topic deleted and created again under the same
     * name say nothing of the new topic's records.
     */
    public record Written(long first, long end, long from, Optional<Uuid> topicId) {

        /** @throws IllegalArgumentException when the range is empty or an offset is negative */
        public Written {
            if (first < 0 || from < 0 || end <= first) {
                throw new IllegalArgumentException("first " + first + ", end " + end + " and from " + from
                        + " are not a range of offsets");
            }
        }

        public Written(long first, long end, long from) {
            this(first, end, from, Optional.empty());
        }

        /** Whether this line is of a topic other than the one with {@code current} id (deleted and created again). */
        public boolean ofAnotherTopicThan(Uuid current) {
            return topicId.isPresent() && !topicId.get().equals(current);
        }
    }

    static final int FORMAT = 1;
    private static final String TARGET_PARTITIONS = "target.partitions.";

    public ProgressRecord {
        targetPartitions = Map.copyOf(targetPartitions);
        TreeMap<TopicPartition, Written> sorted = new TreeMap<>(ProgressRecordLines.ORDER);
        sorted.putAll(written);
        written = Collections.unmodifiableMap(sorted);
        if (from > next) {
            throw new IllegalArgumentException("from " + from + " is past next " + next);
        }
    }

    /** Progress as written, without a completion standing next to it. */
    public ProgressRecord(long from, long next, Uuid topicId, Optional<Uuid> sourceTopicId,
                   Map<String, Integer> targetPartitions, Optional<RedoRange> redo) {
        this(from, next, topicId, sourceTopicId, targetPartitions, redo, Optional.empty(), Map.of(),
                Optional.empty());
    }

    /** This progress as written by {@code holder} under its claim, with the {@code written} lines. */
    public ProgressRecord withOwnership(Holder holder, Map<TopicPartition, Written> written) {
        return new ProgressRecord(from, next, topicId, sourceTopicId, targetPartitions, redo, Optional.of(holder),
                written, leftOpen);
    }

    /**
     * The intent to redo (rule V, design 2.7.1 step 3): the commits behind this progress were lost on the partitions of
     * {@code starts} (each with the {@code from} of its lost line); the progress goes back to {@code next} (the
     * smallest of those), the records up to {@code end} are sent again only there, each from its own start on
     * (joined with a redo this progress still carries), and the lost lines are dropped (the redo stands for them).
     */
    public ProgressRecord redoing(long next, long end, Map<TopicPartition, Long> starts) {
        RedoRange range = redo.map(r -> r.joinedWith(end, this.next, starts)).orElseGet(() -> new RedoRange(end, starts));
        Map<TopicPartition, Written> kept = new HashMap<>(written);
        kept.keySet().removeAll(starts.keySet());
        return new ProgressRecord(next, next, topicId, sourceTopicId, targetPartitions, Optional.of(range),
                Optional.empty(), kept, Optional.empty());
    }

    /**
     * This progress with {@code completion} standing next to it ({@link CommitCompletion}): it is then the progress of
     * the committed transaction the completion names, which may still be open on target partitions.
     */
    public ProgressRecord withLeftOpen(CommitCompletion completion) {
        return new ProgressRecord(from, next, topicId, sourceTopicId, targetPartitions, redo, holder, written,
                Optional.of(completion));
    }

    /** Progress that covered nothing ({@code from} = {@code next}), without a redo. */
    public ProgressRecord(long next, Uuid topicId, Optional<Uuid> sourceTopicId,
            Map<String, Integer> targetPartitions) {
        this(next, next, topicId, sourceTopicId, targetPartitions, Optional.empty());
    }

    /** Progress without a known source topic id and without mapped target topics, covering nothing. */
    public ProgressRecord(long next, Uuid topicId) {
        this(next, topicId, Optional.empty(), Map.of());
    }

    /** The record of {@code transactionalId}'s progress, for partition 0 of the progress topic. */
    public ProducerRecord<byte[], byte[]> toRecord(TopicPartition progressPartition, String transactionalId,
                                            TopicPartition source) {
        StringBuilder value = new StringBuilder("format=" + FORMAT + "\nfrom=" + from + "\nnext=" + next + "\n");
        ProgressRecordLines.appendHolder(value, holder);
        redo.ifPresent(r -> value.append(RedoRange.END).append('=').append(r.end()).append('\n')
                .append(RedoRange.PARTITIONS).append('=').append(r.partitionsText()).append('\n'));
        value.append("source=").append(source).append('\n');
        sourceTopicId.ifPresent(id -> value.append("source.topic.id=").append(id).append('\n'));
        new TreeMap<>(targetPartitions).forEach((topic, count) ->
                value.append(TARGET_PARTITIONS).append(topic).append('=').append(count).append('\n'));
        value.append("topic.id=").append(topicId).append('\n');
        ProgressRecordLines.appendWritten(value, written);
        return new ProducerRecord<>(progressPartition.topic(), progressPartition.partition(),
                ProgressLog.key(transactionalId), value.toString().getBytes(StandardCharsets.UTF_8));
    }

    /** @throws IllegalArgumentException when {@code value} is not a progress record of a format this reads */
    public static ProgressRecord parse(byte[] value) {
        if (value == null) {
            throw new IllegalArgumentException("a record without a value");
        }
        Properties lines = new Properties();
        try {
            lines.load(new StringReader(new String(value, StandardCharsets.UTF_8)));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        String format = lines.getProperty("format");
        if (!String.valueOf(FORMAT).equals(format)) {
            throw new IllegalArgumentException("format " + format + ", while this version reads format " + FORMAT
                    + " (written by a newer version?)");
        }
        try {
            return new ProgressRecord(Long.parseLong(required(lines, "from")), Long.parseLong(required(lines, "next")),
                    Uuid.fromString(required(lines, "topic.id")),
                    Optional.ofNullable(lines.getProperty("source.topic.id")).map(Uuid::fromString),
                    targetPartitions(lines),
                    RedoRange.parse(lines.getProperty(RedoRange.END), lines.getProperty(RedoRange.PARTITIONS)),
                    ProgressRecordLines.holder(lines), ProgressRecordLines.written(lines), Optional.empty());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("format " + FORMAT + " but " + e.getMessage(), e);
        }
    }

    private static Map<String, Integer> targetPartitions(Properties lines) {
        Map<String, Integer> counts = new TreeMap<>();
        for (String key : lines.stringPropertyNames()) {
            if (key.startsWith(TARGET_PARTITIONS)) {
                int count = Integer.parseInt(lines.getProperty(key).trim());
                if (count < 1) {
                    throw new IllegalArgumentException(key + " is " + count + ", not a partition count");
                }
                counts.put(key.substring(TARGET_PARTITIONS.length()), count);
            }
        }
        return counts;
    }

    private static String required(Properties lines, String key) {
        String value = lines.getProperty(key);
        if (value == null) {
            throw new IllegalArgumentException(key + " is missing");
        }
        return value;
    }
}
