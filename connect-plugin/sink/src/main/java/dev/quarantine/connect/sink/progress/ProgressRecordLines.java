package dev.quarantine.connect.sink.progress;

import java.util.Comparator;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.TreeMap;
import java.util.regex.Pattern;

import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;

import dev.quarantine.connect.sink.progress.ProgressRecord.Holder;
import dev.quarantine.connect.sink.progress.ProgressRecord.Written;
import dev.quarantine.txn.TopicNames;

/**
 * The ownership lines of a progress record ({@link ProgressRecord}): {@code holder} and {@code claim} (design 2.2)
 * and {@code written.<tp>=<first>,<end>,<from>[,id=<topic id>]} (design 2.7.1, rule V), written and read here only. Every number is
 * plain decimal without sign or leading zero, every {@code <tp>} a legal topic name, a dash and a partition, exactly
 * as written; a line of that shape that does not read is refused, never echoed (the lines are input from the topic,
 * not ours until read).
 *
 * <p>Later versions, by format 1's rule (unknown lines are ignored; a change older readers must not ignore is a new
 * {@code format}): a {@code written.} key whose rest is not exactly a {@code <topic>-<partition>} (a later version's
 * {@code written.<tp>.<field>}, say) is not a line of this version and is ignored; a value's fields after the third
 * are a later version's additions and are ignored, the first three read as here (and this version's own
 * {@code id=<topic id>}, the id of the line's topic as its writer knew it, which a reader before it ignores). So a
 * later writer may add
 * {@code written.*} keys and append fields without stopping this reader, and may not change what the three fields
 * mean without a new format.
 */
final class ProgressRecordLines {

    static final String HOLDER = "holder";
    static final String CLAIM = "claim";
    static final String WRITTEN = "written.";
    /** The field after the three offsets that names the topic's id: {@code id=<topic id>}. */
    static final String TOPIC_ID = "id=";
    /** More lines than a record can need: one per target and dead-letter partition a transaction wrote. */
    static final int MAX_WRITTEN = 10_000;
    static final Comparator<TopicPartition> ORDER = Comparator.comparing(TopicPartition::topic)
            .thenComparingInt(TopicPartition::partition);
    private static final Pattern NUMBER = Pattern.compile("0|[1-9][0-9]{0,18}");

    private ProgressRecordLines() {
    }

    static void appendHolder(StringBuilder value, Optional<Holder> holder) {
        holder.ifPresent(h -> value.append(CLAIM).append('=').append(h.claim()).append('\n')
                .append(HOLDER).append('=').append(h.id()).append('\n'));
    }

    /** The lines in {@code written}'s order, which the record keeps sorted by topic and partition. */
    static void appendWritten(StringBuilder value, Map<TopicPartition, Written> written) {
        written.forEach((tp, w) -> {
            value.append(WRITTEN).append(tp).append('=').append(w.first()).append(',').append(w.end()).append(',')
                    .append(w.from());
            w.topicId().ifPresent(id -> value.append(',').append(TOPIC_ID).append(id));
            value.append('\n');
        });
    }

    /** @throws IllegalArgumentException when only one of the two lines is there, or one cannot be read */
    static Optional<Holder> holder(Properties lines) {
        String id = lines.getProperty(HOLDER);
        String claim = lines.getProperty(CLAIM);
        if (id == null && claim == null) {
            return Optional.empty();
        }
        if (id == null || claim == null) {
            throw new IllegalArgumentException(HOLDER + " and " + CLAIM + " come together, one is missing");
        }
        return Optional.of(new Holder(id, number(claim, CLAIM)));
    }

    /** @throws IllegalArgumentException when a line cannot be read, or there are more than {@link #MAX_WRITTEN} */
    static Map<TopicPartition, Written> written(Properties lines) {
        Map<TopicPartition, Written> written = new TreeMap<>(ORDER);
        for (String key : lines.stringPropertyNames()) {
            if (!key.startsWith(WRITTEN)) {
                continue;
            }
            if (written.size() == MAX_WRITTEN) {
                throw new IllegalArgumentException("more than " + MAX_WRITTEN + " " + WRITTEN + "* lines");
            }
            Optional<TopicPartition> named = partition(key.substring(WRITTEN.length()));
            if (named.isEmpty()) {
                continue;
            }
            TopicPartition tp = named.get();
            String[] offsets = lines.getProperty(key).split(",", -1);
            if (offsets.length < 3) {
                throw new IllegalArgumentException("the " + WRITTEN + tp + " line is not <first>,<end>,<from>");
            }
            try {
                written.put(tp, new Written(number(offsets[0], "first"), number(offsets[1], "end"),
                        number(offsets[2], "from"), topicId(offsets)));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("the " + WRITTEN + tp + " line: " + e.getMessage(), e);
            }
        }
        return written;
    }

    /** The partition {@code text} names exactly as this version writes it; empty for any other text. */
    private static Optional<TopicPartition> partition(String text) {
        int dash = text.lastIndexOf('-');
        if (dash > 0 && TopicNames.isLegal(text.substring(0, dash))
                && NUMBER.matcher(text.substring(dash + 1)).matches()) {
            long partition = Long.parseLong(text.substring(dash + 1));
            if (partition <= Integer.MAX_VALUE) {
                return Optional.of(new TopicPartition(text.substring(0, dash), (int) partition));
            }
        }
        return Optional.empty();
    }

    /** The {@code id=} field among those after the third; empty when there is none. */
    private static Optional<Uuid> topicId(String[] fields) {
        for (int i = 3; i < fields.length; i++) {
            if (fields[i].startsWith(TOPIC_ID)) {
                try {
                    return Optional.of(Uuid.fromString(fields[i].substring(TOPIC_ID.length())));
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException(TOPIC_ID + " is not a topic id");
                }
            }
        }
        return Optional.empty();
    }

    private static long number(String text, String what) {
        try {
            if (NUMBER.matcher(text).matches()) {
                return Long.parseLong(text);
            }
        } catch (NumberFormatException e) {
            // past Long.MAX_VALUE: not an offset either
        }
        throw new IllegalArgumentException(what + " is not an offset");
    }
}
