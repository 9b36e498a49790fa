package dev.quarantine.connect.sink.ownership;

import java.util.Optional;

import org.apache.kafka.common.errors.ProducerFencedException;

/**
 * {@link CoordinatorAnswersIT} on a broker formatted with {@code transaction.version=1}: a commit after the
 * coordinator's timeout abort is refused as fenced (the abort completes at the fence's epoch, and version 1 ends only
 * at the current one).
 */
class CoordinatorAnswersVersion1IT extends CoordinatorAnswersIT {

    @Override
    Optional<Short> transactionVersion() {
        return Optional.of((short) 1);
    }

    @Override
    Class<? extends Exception> refusalOfACommitAfterTheTimeoutAbort() {
        return ProducerFencedException.class;
    }
}
