package dev.quarantine.connect.sink.progress;

import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.Properties;
import java.util.regex.Pattern;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.errors.ConnectException;

import dev.quarantine.connect.sink.write.WriterFactory;
import dev.quarantine.txn.RecordPositions;
import dev.quarantine.txn.TopicNames;

/**
 * A claim: the transactional id {@code holder} claims the source partition {@code source}, as a record of partition
 * 1 of the progress topic (docs/design/sink-ownership.md 2.2). The one reader and writer of the format. The key is
 * the partition's progress key, a {@code /} and the claiming id, so compaction keeps every id's last claim of every
 * partition; the value repeats the id, so a record copied under another key is refused:
 *
 * <pre>
 * key:   orders-copy:orders-3/orders-copy:task#1.0
 * value: format=1
 *        holder=orders-copy:task#1.0
 * </pre>
 *
 * <p>The ids (2.1): a task's slot {@code <prefix>:task#<n>.<j>} and the offsets API's {@code <prefix>:offsets#0}.
 * No topic name holds {@code #}, {@code :} or {@code /}, so an id is never a progress key, and a claim key splits
 * at its first {@code /}. A key is this connector's only when it is exactly what {@link #key} builds for its prefix
 * (numbers without leading zeros, the topic a legal topic name): any other key is another writer's and is never
 * parsed. A claim is identified by its offset in partition 1 ({@link OwnershipRecords}); it carries nothing else.
 *
 * <table>
 * <caption>What a reader does with a record of partition 1</caption>
 * <tr><th>key</th><th>value</th><th>read as</th></tr>
 * <tr><td>none, or not a claim key of this prefix (another connector's, {@code <id>/last})</td><td>any</td>
 *     <td>not ours: skipped unread</td></tr>
 * <tr><td>a claim key of this prefix</td><td>format 1, {@code holder} equal to the key's id, at most
 *     {@link #MAX_VALUE_BYTES} bytes; unknown lines ignored</td><td>the claim</td></tr>
 * <tr><td>a claim key of this prefix</td><td>none (a tombstone), too large, another format, no {@code holder} or
 *     another id</td><td>refused, naming the record's {@code topic-partition@offset}: the task stops rather than
 *     miss a holder it must fence</td></tr>
 * </table>
 */
public record OwnershipRecord(TopicPartition source, String holder) {

    /** The partition of the progress topic that holds the claims (partition 0 holds the progress). */
    public static final int PARTITION = 1;
    /** A claim's value is about 50 bytes; anything much larger was not written by this format. */
    static final int MAX_VALUE_BYTES = 1024;
    private static final String FORMAT = "1";
    private static final String NUMBER = "(0|[1-9][0-9]{0,8})";
    private static final Pattern ID_SUFFIX = Pattern.compile("task#" + NUMBER + "\\." + NUMBER + "|offsets#0");

    /** @throws IllegalArgumentException when {@code holder} is not an id of the grammar under any prefix */
    public OwnershipRecord {
        requireId(holder);
    }

    /** @throws IllegalArgumentException when {@code id} is not an id of the grammar under any prefix */
    static void requireId(String id) {
        int colon = id.lastIndexOf(':');
        if (colon <= 0 || !ID_SUFFIX.matcher(id.substring(colon + 1)).matches()) {
            throw new IllegalArgumentException("a holder is <prefix>:task#<n>.<j> or <prefix>:offsets#0");
        }
    }

    /** The transactional id of slot {@code slot} of task {@code task}: {@code <prefix>:task#<n>.<j>}. */
    public static String taskId(String prefix, int task, int slot) {
        if (task < 0 || slot < 0) {
            throw new IllegalArgumentException("task " + task + " and slot " + slot + " are numbered from 0");
        }
        return prefix + ":task#" + task + "." + slot;
    }

    /** The transactional id that changes offsets for Connect's offsets API: {@code <prefix>:offsets#0}. */
    public static String offsetsId(String prefix) {
        return prefix + ":offsets#0";
    }

    /** Whether {@code id} is one of the ids of {@code prefix}: a task slot's or the offsets API's. */
    public static boolean isId(String prefix, String id) {
        String start = prefix + ":";
        return id.startsWith(start) && ID_SUFFIX.matcher(id.substring(start.length())).matches();
    }

    /** Whether this claim's holder is one of {@code prefix}'s ids. */
    public boolean heldUnder(String prefix) {
        return isId(prefix, holder);
    }

    /** The claim's key: {@code <progress key of source>/<holder>}. */
    public String key(String prefix) {
        return WriterFactory.transactionalId(prefix, source) + "/" + holder;
    }

    /** The claim as a record of partition 1 of {@code progressTopic}. */
    public ProducerRecord<byte[], byte[]> toRecord(String progressTopic, String prefix) {
        if (!heldUnder(prefix)) {
            throw new IllegalArgumentException("the holder is not an id of the prefix " + prefix);
        }
        String value = "format=" + FORMAT + "\nholder=" + holder + "\n";
        return new ProducerRecord<>(progressTopic, PARTITION, key(prefix).getBytes(StandardCharsets.UTF_8),
                value.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * The claim {@code key} names when it is a claim key of {@code prefix} exactly as {@link #key} writes it; empty
     * for every other key, which is not parsed further.
     */
    public static Optional<OwnershipRecord> ofKey(String prefix, String key) {
        String start = prefix + ":";
        if (key == null || !key.startsWith(start)) {
            return Optional.empty();
        }
        int slash = key.indexOf('/', start.length());
        if (slash < 0 || !isId(prefix, key.substring(slash + 1))) {
            return Optional.empty();
        }
        Optional<TopicPartition> source = WriterFactory.sourceOf(prefix, key.substring(0, slash))
                .filter(partition -> TopicNames.isLegal(partition.topic()));
        return source.map(partition -> new OwnershipRecord(partition, key.substring(slash + 1)))
                .filter(claim -> claim.key(prefix).equals(key));
    }

    /**
     * The claim a record of partition 1 holds, when its key is a claim key of {@code prefix}; empty for a record
     * that is not ours.
     *
     * @throws ConnectException when the key is ours and the value is not a claim of this format under that key,
     *                          naming the record's {@code topic-partition@offset}
     */
    public static Optional<OwnershipRecord> read(String prefix, ConsumerRecord<byte[], byte[]> record) {
        String key = record.key() == null ? null : new String(record.key(), StandardCharsets.UTF_8);
        Optional<OwnershipRecord> claim = ofKey(prefix, key);
        if (claim.isEmpty()) {
            return claim;
        }
        try {
            return Optional.of(parse(claim.get(), record.value()));
        } catch (IllegalArgumentException e) {
            throw new ConnectException("The claim record " + RecordPositions.of(record.topic(), record.partition(),
                    record.offset()) + " cannot be read: " + e.getMessage() + ". The task stops rather than miss a"
                    + " holder it must fence", e);
        }
    }

    /**
     * The claim {@code value} holds under the key of {@code keyed}.
     *
     * @throws IllegalArgumentException when it is not a claim of this format under that key
     */
    static OwnershipRecord parse(OwnershipRecord keyed, byte[] value) {
        if (value == null) {
            throw new IllegalArgumentException("a tombstone under a claim key (claims are never deleted)");
        }
        if (value.length > MAX_VALUE_BYTES) {
            throw new IllegalArgumentException("a value of " + value.length + " bytes, while a claim has at most "
                    + MAX_VALUE_BYTES);
        }
        Properties lines = new Properties();
        try {
            lines.load(new StringReader(new String(value, StandardCharsets.UTF_8)));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("lines that do not parse (a malformed \\u escape)", e);
        }
        if (!FORMAT.equals(lines.getProperty("format"))) {
            throw new IllegalArgumentException(lines.getProperty("format") == null ? "no format line"
                    : "another format than " + FORMAT + " (written by a newer version?)");
        }
        String holder = lines.getProperty("holder");
        if (holder == null) {
            throw new IllegalArgumentException("holder is missing");
        }
        if (!holder.equals(keyed.holder())) {
            throw new IllegalArgumentException("holder is not the id its key names (a record copied under"
                    + " another key)");
        }
        return keyed;
    }
}
