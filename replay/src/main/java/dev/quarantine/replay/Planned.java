package dev.quarantine.replay;

import org.apache.kafka.clients.consumer.ConsumerRecord;

/** A dead letter read, and what the replay does with it. */
record Planned(ConsumerRecord<byte[], byte[]> record, DeadLetterView letter, RecordPlan.Decision decision) {

    static Planned of(ConsumerRecord<byte[], byte[]> record, RecordPlan plan) {
        DeadLetterView letter = DeadLetterView.of(record);
        return new Planned(record, letter, plan.decide(letter));
    }

    /** Whether it is written somewhere (replayed, dead-lettered again or parked). */
    boolean written() {
        return decision.target().isPresent();
    }
}
