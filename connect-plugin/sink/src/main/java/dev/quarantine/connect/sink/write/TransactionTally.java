package dev.quarantine.connect.sink.write;

import java.util.List;
import java.util.Optional;

import org.apache.kafka.connect.errors.ConnectException;

import dev.quarantine.connect.sink.metrics.SinkMetrics;
import dev.quarantine.txn.DeadLetterBreaker;
import dev.quarantine.txn.SendErrors;

/**
 * A task's metrics and its dead-letter breaker as its slots' transactions end: a commit's latency, records written and
 * records dead-lettered by error class, an abort; the breaker asked before each commit for the records the up-front
 * checks dead-lettered ({@link TaskTransaction.Breaker}) and after it for those isolated after the broker rejected them
 * ({@link TaskWriter.Tally}).
 */
final class TransactionTally implements TaskWriter.Tally, TaskTransaction.Breaker {

    private final SinkMetrics metrics;
    private final DeadLetterBreaker breaker;

    TransactionTally(SinkMetrics metrics, DeadLetterBreaker breaker) {
        this.metrics = metrics;
        this.breaker = breaker;
    }

    @Override
    public Optional<ConnectException> committed(long latencyMs, int records, List<TaskTransaction.Poison> atSend,
                                                List<TaskTransaction.Poison> isolated) {
        metrics.committed(latencyMs);
        metrics.recordsWritten(records);
        atSend.forEach(poison -> metrics.deadLettered(SendErrors.unwrap(poison.cause())));
        isolated.forEach(poison -> metrics.deadLettered(SendErrors.unwrap(poison.cause())));
        return beforeCommit(0, isolated);
    }

    @Override
    public void aborted() {
        metrics.aborted();
    }

    /**
     * Counts {@code written} records and the {@code deadLettered} ones with the breaker, before each commit of the
     * slot's transaction; the task's failure when they trip it.
     */
    @Override
    public Optional<ConnectException> beforeCommit(int written, List<TaskTransaction.Poison> deadLettered) {
        for (int i = 0; i < written; i++) {
            breaker.written();
        }
        Optional<ConnectException> tripped = Optional.empty();
        for (TaskTransaction.Poison poison : deadLettered) {
            Throwable cause = SendErrors.unwrap(poison.cause());
            if (tripped.isEmpty()) {
                tripped = breaker.deadLettered(cause.getClass().getName()).map(WriterErrors.BreakerTripped::new);
            }
        }
        return tripped;
    }
}
