package dev.quarantine.replay;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * What a dry run decided so far, per destination topic: the dead letters it would write there, and those headed to a
 * topic the destination rule refuses. One per engine; its owner is the engine's thread.
 */
final class DryRunTally {

    private final TopicCounts wouldWrite = new TopicCounts();
    private final TopicCounts wouldRefuse = new TopicCounts();

    /**
     * Decides each dead letter of {@code batch} as a replay would, tells {@code listener} and counts it; answers
     * {@code progress} advanced to {@code next}, with nothing written.
     */
    ReplayProgress decide(ReplayProgress progress, List<ConsumerRecord<byte[], byte[]>> batch,
                          Map<Integer, Long> next, RecordPlan plan, ReplayListener listener) {
        ReplayCounts counts = progress.counts();
        for (ConsumerRecord<byte[], byte[]> record : batch) {
            DeadLetterView letter = DeadLetterView.of(record);
            RecordPlan.Decision decision = plan.decide(letter);
            listener.onRecord(new RecordReport(letter.position(), decision.outcome(), count(decision),
                    letter.errorClass(), decision.reason()));
            counts = counts.plus(decision.outcome());
        }
        return progress.advanced(next, counts, WrittenOffsets.NONE, Instant.now());
    }

    /** Counts {@code decision} and says what a report names as its place. */
    private Optional<String> count(RecordPlan.Decision decision) {
        decision.target().ifPresent(t -> wouldWrite.add(t.topic()));
        if (decision.outcome() == Outcome.REFUSED_DESTINATION) {
            decision.topic().ifPresent(wouldRefuse::add);
        }
        return place(decision);
    }

    /** The report of the counts so far, with the dry run's {@code progress}. */
    DryRunReport report(ReplayProgress progress) {
        return DryRunReport.of(wouldWrite.asMap(), wouldRefuse.asMap(), progress);
    }

    /** Where a decision sends a dead letter: {@code topic-partition} or {@code topic}; else the topic it named. */
    static Optional<String> place(RecordPlan.Decision decision) {
        return decision.target().map(t -> t.topic() + (t.partition() == null ? "" : "-" + t.partition()))
                .or(decision::topic);
    }
}
