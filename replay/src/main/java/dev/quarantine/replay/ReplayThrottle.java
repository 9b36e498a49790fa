package dev.quarantine.replay;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.utils.Time;

/**
 * The replay's speed limits, {@code replay.max.records.per.second} and {@code replay.max.bytes.per.second}, kept the
 * way Kafka's client quotas are: a batch is written, then the replay is delayed by what it cost at the limits. A clock
 * says until when the batches written so far are paid for; the next step waits for it before it reads or opens a
 * transaction.
 *
 * <table>
 * <caption>Rows</caption>
 * <tr><th>when</th><th>then</th></tr>
 * <tr><td>a batch was read and decided</td><td>{@link #keep} cuts it to one second's worth of the limits (the dead
 *     letters it writes; at least one); the rest is read again by the next step</td></tr>
 * <tr><td>the batch is about to be written</td><td>{@link #charge}: its cost (records / the records limit, bytes / the
 *     bytes limit, the longer) is added to the paid-until clock, counted from now when that lies in the past</td></tr>
 * <tr><td>a step begins</td><td>{@link #awaitPaid} sleeps until the clock, at most {@link #MAX_WAIT} at a time; no
 *     transaction is open then</td></tr>
 * <tr><td>the replay was idle or slow</td><td>nothing is saved up: a burst after a pause is one batch</td></tr>
 * <tr><td>no limit set (0)</td><td>never cuts, never waits</td></tr>
 * </table>
 *
 * Why wait between transactions rather than inside one: a transaction held open while waiting could pass the
 * producer's {@code transaction.timeout.ms} and be aborted by the broker; here a throttled batch is at most one
 * second's worth of the limits and is written as fast as an unthrottled one, so it never holds a transaction longer.
 * The cost of a batch is known once it is decided, so a dead letter a filter skips costs nothing.
 */
final class ReplayThrottle {

    /** The longest one {@link #awaitPaid} sleeps, so that a step returns (and a task can stop) at least this often. */
    static final Duration MAX_WAIT = Duration.ofSeconds(1);

    private static final long NANOS_PER_SECOND = TimeUnit.SECONDS.toNanos(1);
    private static final long NANOS_PER_MILLI = TimeUnit.MILLISECONDS.toNanos(1);
    private static final double MAX_COST_NANOS = TimeUnit.DAYS.toNanos(1);

    private final OptionalLong maxRecordsPerSecond;
    private final OptionalLong maxBytesPerSecond;
    private final Time time;
    private long paidUntilNanos;

    ReplayThrottle(OptionalLong maxRecordsPerSecond, OptionalLong maxBytesPerSecond, Time time) {
        this.maxRecordsPerSecond = maxRecordsPerSecond;
        this.maxBytesPerSecond = maxBytesPerSecond;
        this.time = time;
        this.paidUntilNanos = time.nanoseconds();
    }

    static ReplayThrottle of(ReplayConfig config, Time time) {
        return new ReplayThrottle(config.maxRecordsPerSecond(), config.maxBytesPerSecond(), time);
    }

    boolean limited() {
        return maxRecordsPerSecond.isPresent() || maxBytesPerSecond.isPresent();
    }

    /**
     * How many of a batch's dead letters, in order, one batch keeps: as many as fit in one second's worth of the
     * limits, counting only those written ({@code bytes[i]} negative: not written, costs nothing), and at least the
     * first one written.
     *
     * @param bytes per dead letter, {@link #bytesOf} when it is written, -1 when it is not
     */
    int keep(long[] bytes) {
        long records = 0;
        long total = 0;
        for (int i = 0; i < bytes.length; i++) {
            if (bytes[i] < 0) {
                continue;
            }
            boolean over = (maxRecordsPerSecond.isPresent() && records + 1 > maxRecordsPerSecond.getAsLong())
                    || (maxBytesPerSecond.isPresent() && total + bytes[i] > maxBytesPerSecond.getAsLong());
            if (over && records > 0) {
                return i;
            }
            records++;
            total += bytes[i];
        }
        return bytes.length;
    }

    /** The part of {@code batch} that one second's worth of the limits holds ({@link #keep}): all without limits. */
    List<Planned> within(List<Planned> batch) {
        if (!limited()) {
            return batch;
        }
        return batch.subList(0, keep(batch.stream().mapToLong(p -> p.written() ? bytesOf(p.record()) : -1)
                .toArray()));
    }

    /** Writing {@code batch} costs at the limits ({@link #charge}): its dead letters written, and their bytes. */
    void charge(List<Planned> batch) {
        List<Planned> writing = batch.stream().filter(Planned::written).toList();
        charge(writing.size(), writing.stream().mapToLong(p -> bytesOf(p.record())).sum());
    }

    /** Adds what writing {@code records} dead letters of {@code bytes} costs at the limits to the paid-until clock. */
    void charge(long records, long bytes) {
        long cost = Math.max(cost(records, maxRecordsPerSecond), cost(bytes, maxBytesPerSecond));
        paidUntilNanos = Math.max(paidUntilNanos, time.nanoseconds()) + cost;
    }

    /** How long until the batches charged so far are paid for; zero when they are. */
    Duration owed() {
        return Duration.ofNanos(Math.max(0, paidUntilNanos - time.nanoseconds()));
    }

    /**
     * Sleeps until what was charged is paid for, but at most {@link #MAX_WAIT}; true when nothing is owed any more.
     *
     * @throws org.apache.kafka.common.errors.InterruptException when interrupted, the interrupt flag kept
     */
    boolean awaitPaid() {
        Duration owed = owed();
        if (owed.isZero()) {
            return true;
        }
        long waitNanos = Math.min(owed.toNanos(), MAX_WAIT.toNanos());
        time.sleep(TimeUnit.NANOSECONDS.toMillis(waitNanos + NANOS_PER_MILLI - 1)); // whole milliseconds, rounded up
        return owed().isZero();
    }

    /** The bytes a dead letter counts for: its key, value and headers (names and values) as read. */
    static long bytesOf(ConsumerRecord<byte[], byte[]> record) {
        long bytes = Math.max(0, record.serializedKeySize()) + Math.max(0, record.serializedValueSize());
        for (Header header : record.headers()) {
            bytes += header.key().getBytes(StandardCharsets.UTF_8).length
                    + (header.value() == null ? 0 : header.value().length);
        }
        return bytes;
    }

    /** {@code amount} at {@code perSecond}, in nanoseconds rounded up; at most a day (a batch never costs more). */
    private static long cost(long amount, OptionalLong perSecond) {
        if (perSecond.isEmpty() || amount <= 0) {
            return 0;
        }
        return (long) Math.min(Math.ceil((double) amount * NANOS_PER_SECOND / perSecond.getAsLong()), MAX_COST_NANOS);
    }
}
