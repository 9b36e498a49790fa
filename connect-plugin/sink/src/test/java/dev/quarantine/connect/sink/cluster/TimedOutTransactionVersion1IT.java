package dev.quarantine.connect.sink.cluster;

import java.util.Optional;

/**
 * {@link TimedOutTransactionIT} on a broker formatted with {@code transaction.version=1}: the coordinator's abort
 * completes at the epoch its fence bumped to, one above the records'.
 */
class TimedOutTransactionVersion1IT extends TimedOutTransactionIT {

    @Override
    Optional<Short> transactionVersion() {
        return Optional.of((short) 1);
    }
}
