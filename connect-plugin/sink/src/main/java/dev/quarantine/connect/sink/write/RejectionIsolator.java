package dev.quarantine.connect.sink.write;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.apache.kafka.connect.sink.SinkRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Finds the poison among records the broker rejected although the up-front checks let them through (say, the
 * topic's limit changed since it was cached). An aborted transaction does not say for sure which record was at
 * fault: records sent after the failure fail with the same exception. So the first rejected record is isolated: the
 * records before it are committed, it is sent alone, and only if it fails alone is it poison (dead-lettered in its
 * own transaction); then the rest is written the same way.
 */
final class RejectionIsolator {

    private static final Logger log = LoggerFactory.getLogger(RejectionIsolator.class);

    private final BatchCommitter committer;
    private final WriteSetup setup;

    RejectionIsolator(BatchCommitter committer, WriteSetup setup) {
        this.committer = committer;
        this.setup = setup;
    }

    /** Writes {@code records} (of one partition, in offset order), dead-lettering what the broker rejects. */
    void write(List<SinkRecord> records) {
        write(records, new HashMap<>());
    }

    private void write(List<SinkRecord> records, Map<Long, Throwable> poison) {
        List<SinkRecord> remaining = records;
        while (!remaining.isEmpty()) {
            Optional<TransactionAttempt.Failure> rejected = committer.commit(remaining, poison);
            if (rejected.isEmpty()) {
                return;
            }
            long suspect = rejected.get().offset();
            List<SinkRecord> before = remaining.stream().filter(r -> r.originalKafkaOffset() < suspect).toList();
            SinkRecord record = remaining.stream().filter(r -> r.originalKafkaOffset() == suspect).findFirst()
                    .orElseThrow();
            if (!before.isEmpty()) {
                write(before, poison);
            }
            if (remaining.size() > 1) {
                rejected = committer.commit(List.of(record), poison);
            }
            rejected.ifPresent(failure -> deadLetterAlone(record, failure.error(), poison));
            remaining = remaining.stream().filter(r -> r.originalKafkaOffset() > suspect).toList();
        }
    }

    private void deadLetterAlone(SinkRecord record, Throwable error, Map<Long, Throwable> poison) {
        long offset = record.originalKafkaOffset();
        if (poison.containsKey(offset)) {
            throw new WriterErrors.DeadLetterFailed(record, setup.deadLetters().orElseThrow().topic(), error);
        }
        if (setup.deadLetters().isEmpty()) {
            throw new WriterErrors.PoisonInStrictMode(record, setup.converter().targetTopic(record), error);
        }
        log.info("The target rejected {}: {}; it goes to the dead-letter topic", Coordinates.of(record),
                error.getClass().getName());
        poison.put(offset, error);
        committer.commit(List.of(record), poison).ifPresent(again -> {
            throw new WriterErrors.DeadLetterFailed(record, setup.deadLetters().orElseThrow().topic(), again.error());
        });
    }
}
