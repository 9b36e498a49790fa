package dev.quarantine.connect.sink.write;

import java.util.Optional;

import dev.quarantine.connect.sink.cluster.HangingTransactionCheck;
import dev.quarantine.connect.sink.cluster.TopicIds;
import dev.quarantine.connect.sink.metrics.SinkMetrics;
import dev.quarantine.connect.sink.progress.ProgressTarget;
import dev.quarantine.txn.DeadLetterBreaker;

/**
 * What every slot's writer of a task shares: the converters, the dead letters (absent with
 * {@code send.errors.tolerance=none}), the metrics, the breaker, where progress records go, and the check for
 * transactions earlier producers left hanging, and the ids of the topics written (for the progress records' written
 * lines).
 */
public record WriteSetup(RecordConverter converter, Optional<DeadLetters> deadLetters, SinkMetrics metrics,
                  DeadLetterBreaker breaker, ProgressTarget progress,
                  HangingTransactionCheck hanging, TopicIds topicIds) {
}
