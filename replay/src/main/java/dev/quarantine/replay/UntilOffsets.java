package dev.quarantine.replay;

import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * {@code replay.until.offsets}: where a replay's range ends per partition, so that a replay started after a dry run
 * reads exactly the dead letters the dry run read. The range of each partition, captured when the replay first starts:
 *
 * <table>
 * <caption>End of the range of a partition (start: its first offset; end: its read_committed end offset)</caption>
 * <tr><th>until</th><th>end of the range</th></tr>
 * <tr><td>not set</td><td>end</td></tr>
 * <tr><td>the partition not listed</td><td>start (nothing read: the dry run did not read it)</td></tr>
 * <tr><td>between start and end</td><td>until</td></tr>
 * <tr><td>past end</td><td>end (nothing beyond what exists)</td></tr>
 * <tr><td>before start (the dead letters are gone)</td><td>start</td></tr>
 * </table>
 */
public final class UntilOffsets {

    /** How one entry is written. */
    public static final String FORMAT = "<partition>:<offset>";

    /**
     * Why an until given explicitly (REST {@code "until": {}}, CLI {@code --until ""}) that lists no partition is
     * refused: the setting cannot tell it from "not set", which replays every partition, and a dry run always lists
     * every partition it read.
     */
    public static final String NONE_LISTED = "lists no partition: a dry run lists every partition it read (a"
            + " partition with nothing to replay as <partition>:0); leave it out to replay every partition";

    private UntilOffsets() {
    }

    /** Whether {@code entries} of an until given explicitly list no partition (none, or all blank). */
    public static boolean listsNone(Collection<String> entries) {
        return entries.stream().allMatch(String::isBlank);
    }

    /**
     * @throws IllegalArgumentException naming the entry that is not {@value #FORMAT} with a partition and an offset of
     *                                  at least 0, or a partition listed twice
     */
    static Map<Integer, Long> parse(List<String> entries) {
        Map<Integer, Long> until = new HashMap<>();
        for (String entry : entries) {
            String text = entry.trim();
            int colon = text.indexOf(':');
            int partition;
            long offset;
            try {
                partition = Integer.parseInt(text.substring(0, Math.max(colon, 0)));
                offset = Long.parseLong(text.substring(colon + 1));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("'" + abbreviate(text) + "' is not " + FORMAT);
            }
            if (partition < 0 || offset < 0) {
                throw new IllegalArgumentException("'" + abbreviate(text) + "' is not " + FORMAT
                        + " with a partition and an offset of at least 0");
            }
            if (until.put(partition, offset) != null) {
                throw new IllegalArgumentException("partition " + partition + " is listed twice");
            }
        }
        return until;
    }

    /** {@code until} as the setting's value: {@value #FORMAT} entries, comma-separated, by partition. */
    public static String format(Map<Integer, Long> until) {
        return new TreeMap<>(until).entrySet().stream().map(e -> e.getKey() + ":" + e.getValue())
                .collect(Collectors.joining(","));
    }

    /** The ends of the range per partition of {@code end}, as the table above says. */
    static SortedMap<Integer, Long> bound(Map<Integer, Long> start, Map<Integer, Long> end, Map<Integer, Long> until) {
        SortedMap<Integer, Long> bounded = new TreeMap<>();
        end.forEach((partition, last) -> {
            long first = start.get(partition);
            bounded.put(partition, Math.max(first, Math.min(last, until.getOrDefault(partition, first))));
        });
        return bounded;
    }

    private static String abbreviate(String text) {
        return text.length() <= 40 ? text : text.substring(0, 40) + "...";
    }
}
