package dev.quarantine.connect.sink.write;

import java.time.Duration;
import java.util.Collection;
import java.util.OptionalLong;

/**
 * When a task writes the records it has collected over its puts (one transaction of its slot spanning every source
 * partition it holds), from what is waiting:
 *
 * <table>
 * <caption>After a put, with {@code age} = now - when the oldest waiting record arrived</caption>
 * <tr><th>waiting</th><th>then</th></tr>
 * <tr><td>nothing</td><td>nothing to write, nothing to wait for</td></tr>
 * <tr><td>records, {@code commit.interval.ms} = 0</td><td>write now (one transaction per put)</td></tr>
 * <tr><td>{@code commit.max.records} records or more</td><td>write now</td></tr>
 * <tr><td>an estimated {@code producers.memory.bytes} or more</td><td>write now</td></tr>
 * <tr><td>age at or above {@code commit.interval.ms}</td><td>write now</td></tr>
 * <tr><td>otherwise</td><td>wait {@code commit.interval.ms - age}: the task asks the worker to call put again
 *     within that ({@code SinkTaskContext.timeout}), with or without new records</td></tr>
 * </table>
 */
public record CommitTrigger(Duration interval, int maxRecords, long maxBytes) {

    /** How long until the records waiting in {@code partitions} together are due: 0 now, empty when none waits. */
    public OptionalLong dueInMs(Collection<PendingRecords> partitions, long nowMs) {
        int count = 0;
        long bytes = 0;
        OptionalLong oldest = OptionalLong.empty();
        for (PendingRecords pending : partitions) {
            count += pending.count();
            bytes += pending.bytes();
            OptionalLong since = pending.sinceMs();
            if (since.isPresent() && (oldest.isEmpty() || since.getAsLong() < oldest.getAsLong())) {
                oldest = since;
            }
        }
        return dueInMs(count, bytes, oldest, nowMs);
    }

    /**
     * How long until the waiting records are due: 0 to write now, empty when nothing waits.
     *
     * @param oldestSinceMs when the oldest waiting record arrived (epoch ms), empty when nothing waits
     */
    public OptionalLong dueInMs(int records, long bytes, OptionalLong oldestSinceMs, long nowMs) {
        if (records == 0 || oldestSinceMs.isEmpty()) {
            return OptionalLong.empty();
        }
        long age = Math.max(0, nowMs - oldestSinceMs.getAsLong());
        if (records >= maxRecords || bytes >= maxBytes || age >= interval.toMillis()) {
            return OptionalLong.of(0);
        }
        return OptionalLong.of(interval.toMillis() - age);
    }
}
