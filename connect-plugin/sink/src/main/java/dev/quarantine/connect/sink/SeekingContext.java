package dev.quarantine.connect.sink;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.metrics.PluginMetrics;
import org.apache.kafka.connect.sink.ErrantRecordReporter;
import org.apache.kafka.connect.sink.SinkRecord;
import org.apache.kafka.connect.sink.SinkTaskContext;

import dev.quarantine.connect.sink.metrics.TaskMetrics;

/**
 * The worker's SinkTaskContext as the task's handler uses it, remembering the partitions it asked the worker to seek
 * since the last put: Connect's WorkerSinkTask applies the seeks (and sets its current offsets to them) at its next
 * poll, before it delivers the next batch, so until then its current offsets of those partitions are not where the
 * task resumes them (see {@link SinkTaskHandler#preCommit}).
 *
 * <p>It also checks that the first records of a sought partition delivered after the seek start where the seek
 * asked ({@link #gapAfterSeek}). Connect can deliver records fetched before the seek: after a put that threw a
 * RetriableException it delivers the failed batch again before anything else, and a batch of a partition revoked
 * meanwhile is not purged when an SMT renamed its records' topic (WorkerSinkTask purges by the transformed topic).
 * Taking them would write past records never delivered since the seek: a gap, records lost.
 *
 * <table>
 * <caption>The first delivered records of a partition the task sought to {@code P}</caption>
 * <tr><th>first delivered offset at or above P</th><th>then</th></tr>
 * <tr><td>none (all below P)</td><td>accepted (the writer skips them as written already); still waiting for
 *     P</td></tr>
 * <tr><td>P</td><td>accepted</td></tr>
 * <tr><td>F above P, for the first time</td><td>refused: the batch of the partition is dropped and it is sought to
 *     P again</td></tr>
 * <tr><td>F above P again, delivered after a put that refused F and returned (so it cannot be the same stale
 *     batch: Connect keeps a batch only after a put threw)</td><td>accepted: the source log holds nothing a consumer
 *     returns between P and F (transaction markers, aborted or compacted records, retention)</td></tr>
 * </table>
 *
 * <p>Gaps between deliveries without a seek are the consumer's own (transaction markers take offsets) and pass. A
 * batch delivered in the put that asked for the seek (a partition opened in that put, design 2.4) was fetched before
 * it: taken only from the offset sought (or below it), else dropped and left to the seek.
 */
public final class SeekingContext implements SinkTaskContext {

    private final SinkTaskContext worker;
    /** Seeks asked since the last put began, not yet applied by the worker. */
    private final Map<TopicPartition, Long> sought = new ConcurrentHashMap<>();
    /** Seeks the worker applied whose first records at or above the offset were not delivered yet. */
    private final Map<TopicPartition, Long> awaiting = new ConcurrentHashMap<>();
    /** Gaps refused, by partition: confirmed by the same gap delivered again after a put that returned. */
    private final Map<TopicPartition, Gap> refused = new ConcurrentHashMap<>();
    /** Whether the gaps refused in the current put count: only once the put returned normally. */
    private final Set<TopicPartition> refusedInThisPut = ConcurrentHashMap.newKeySet();

    /** A gap refused: sought to {@code soughtTo}, the first record delivered was at {@code first}. */
    private record Gap(long soughtTo, long first) {
    }

    SeekingContext(SinkTaskContext worker) {
        this.worker = worker;
    }

    /**
     * A put began: the worker applied the seeks asked before it. Gaps refused by a put that did not return (it
     * threw, and Connect delivers its batch again) are forgotten, so the same stale batch is refused again.
     */
    void delivering() {
        awaiting.putAll(sought);
        sought.clear();
        refusedInThisPut.forEach(refused::remove);
        refusedInThisPut.clear();
    }

    /** The put returned normally: the gaps it refused are confirmed if the next delivery brings them again. */
    void putReturned() {
        refusedInThisPut.clear();
    }

    /** The partitions were closed: their seeks and gaps no longer apply. */
    void forget(Collection<TopicPartition> partitions) {
        partitions.forEach(partition -> {
            awaiting.remove(partition);
            refused.remove(partition);
        });
    }

    /**
     * Checks a delivered batch of a partition (offset order) against the seek the worker last applied to it, as the
     * class's table says: empty to take the batch, or the offset to seek the partition back to, the batch dropped.
     */
    OptionalLong gapAfterSeek(TopicPartition partition, List<SinkRecord> batch) {
        Long soughtNow = sought.get(partition);
        if (soughtNow != null) {
            // sought in this very put (a partition that became OWNED in it): the batch was fetched before the seek,
            // taken only where it starts at the seek (or lies below it); the seek brings the rest again
            OptionalLong first = batch.stream().mapToLong(SinkRecord::originalKafkaOffset)
                    .filter(o -> o >= soughtNow).findFirst();
            if (first.isEmpty() || first.getAsLong() == soughtNow) {
                return OptionalLong.empty();
            }
            refused.put(partition, new Gap(soughtNow, first.getAsLong())); // confirmed if delivered so again
            refusedInThisPut.add(partition);
            return OptionalLong.of(soughtNow);
        }
        Long soughtTo = awaiting.get(partition);
        if (soughtTo == null) {
            return OptionalLong.empty();
        }
        OptionalLong first = batch.stream().mapToLong(SinkRecord::originalKafkaOffset).filter(o -> o >= soughtTo)
                .findFirst();
        if (first.isEmpty()) {
            return OptionalLong.empty();
        }
        Gap seen = refused.remove(partition);
        if (first.getAsLong() == soughtTo || new Gap(soughtTo, first.getAsLong()).equals(seen)) {
            awaiting.remove(partition);
            return OptionalLong.empty();
        }
        refused.put(partition, new Gap(soughtTo, first.getAsLong()));
        refusedInThisPut.add(partition);
        return OptionalLong.of(soughtTo);
    }

    /** Whether the task asked the worker to seek any partition since the last put began. */
    boolean soughtSincePutBegan() {
        return !sought.isEmpty();
    }

    /** Whether the task asked the worker to seek {@code partition} since the last put began. */
    boolean sought(TopicPartition partition) {
        return sought.containsKey(partition);
    }

    @Override
    public void offset(Map<TopicPartition, Long> offsets) {
        sought.putAll(offsets);
        worker.offset(offsets);
    }

    @Override
    public void offset(TopicPartition partition, long offset) {
        sought.put(partition, offset);
        worker.offset(partition, offset);
    }

    @Override
    public Map<String, String> configs() {
        return worker.configs();
    }

    @Override
    public void timeout(long timeoutMs) {
        worker.timeout(timeoutMs);
    }

    @Override
    public Set<TopicPartition> assignment() {
        return worker.assignment();
    }

    @Override
    public void pause(TopicPartition... partitions) {
        worker.pause(partitions);
    }

    @Override
    public void resume(TopicPartition... partitions) {
        worker.resume(partitions);
    }

    @Override
    public void requestCommit() {
        worker.requestCommit();
    }

    @Override
    public ErrantRecordReporter errantRecordReporter() {
        return worker.errantRecordReporter();
    }

    /** Only on workers of Kafka 4.1 and later (see {@link TaskMetrics}); the handler never calls it. */
    @Override
    public PluginMetrics pluginMetrics() {
        return worker.pluginMetrics();
    }
}
