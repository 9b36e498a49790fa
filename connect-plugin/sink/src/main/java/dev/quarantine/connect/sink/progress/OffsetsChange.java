package dev.quarantine.connect.sink.progress;

import java.util.Map;
import java.util.Objects;
import java.util.Set;

import org.apache.kafka.common.TopicPartition;

/**
 * What a call of Connect's offsets API (KIP-875) asks of the sink's progress. Connect answers both
 * {@code DELETE /connectors/{name}/offsets} and a {@code PATCH} of {@code null} offsets with a map of
 * {@code null}s; for a DELETE the map holds exactly the partitions Connect's consumer group has offsets for, which
 * leaves out every partition the sink has progress for but the group does not (a group deleted by an operator, a
 * worker killed before its first offset commit). So:
 *
 * <table>
 * <caption>The request, the group's partitions, what is changed</caption>
 * <tr><th>offsets</th><th>group</th><th>change</th></tr>
 * <tr><td>any offset not null</td><td>any</td><td>{@link #ALTER}: each partition as given</td></tr>
 * <tr><td>all null, the partitions are exactly the group's (none included)</td><td>any</td><td>{@link #RESET_ALL}:
 *     every partition with progress under the connector's prefix, and those given</td></tr>
 * <tr><td>all null, other partitions than the group's</td><td>any</td><td>{@link #ALTER}: those given reset</td></tr>
 * </table>
 *
 * A PATCH that resets exactly the partitions the group knows is taken as the DELETE it cannot be told from.
 */
public enum OffsetsChange {
    ALTER, RESET_ALL;

    public static OffsetsChange of(Map<TopicPartition, Long> offsets, Set<TopicPartition> groupPartitions) {
        boolean allReset = offsets.values().stream().allMatch(Objects::isNull);
        return allReset && offsets.keySet().equals(groupPartitions) ? RESET_ALL : ALTER;
    }
}
