package dev.quarantine.replay;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.utils.Time;

/**
 * Reads the batch each step of a writing replay commits, within the replay's speed limits ({@link ReplayThrottle}):
 * waits until the batches written so far are paid for, reads and decides a batch, keeps the part one second's worth of
 * the limits holds (the rest is read again by the next step), and charges it before it is written (a write that fails
 * rewinds the range, and the batch read again is charged again). One
 * per engine; its owner is the engine's thread.
 */
final class ThrottledBatches {

    private final ReplayConfig config;
    private final ReplayTopics topics;
    private final DeadLetterRange range;
    private final ReplayThrottle throttle;

    /** What a step writes: {@code planned} in one transaction, with the progress advanced to {@code next}. */
    record Batch(List<Planned> planned, Map<Integer, Long> next) {
    }

    /** @param time the clock the speed limits wait on */
    ThrottledBatches(ReplayConfig config, ReplayTopics topics, DeadLetterRange range, Time time) {
        this.config = config;
        this.topics = topics;
        this.range = range;
        this.throttle = ReplayThrottle.of(config, time);
    }

    /**
     * The next batch to write from {@code progress}, charged at the limits; empty when the limits are not paid for
     * yet ({@link ReplayThrottle#awaitPaid}) or when there is nothing to commit (no dead letter kept, and no partition
     * moved past the progress).
     *
     * @throws org.apache.kafka.common.config.ConfigException naming {@code replay.id} when the dead-letter topic was
     *         deleted since the range was captured ({@link ProgressChecks#requireStillCaptured}); nothing charged
     */
    Optional<Batch> next(ReplayProgress progress, RecordPlan plan) {
        if (!throttle.awaitPaid()) {
            return Optional.empty();
        }
        List<ConsumerRecord<byte[], byte[]>> read = range.poll(progress);
        List<Planned> decided = read.stream().map(record -> Planned.of(record, plan)).toList();
        List<Planned> planned = throttle.within(decided);
        range.readAgain(decided.subList(planned.size(), decided.size()).stream().map(Planned::record).toList());
        Map<Integer, Long> next = range.positions(progress);
        if (planned.isEmpty() && next.equals(progress.nextOffsets())) {
            return Optional.empty();
        }
        if (!planned.isEmpty()) {
            ProgressChecks.requireStillCaptured(config, progress, topics.dlqTopicIdNow());
        }
        throttle.charge(planned);
        return Optional.of(new Batch(planned, next));
    }
}
