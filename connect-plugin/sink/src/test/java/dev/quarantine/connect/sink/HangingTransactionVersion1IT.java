package dev.quarantine.connect.sink;

import java.util.Optional;

/**
 * {@link HangingTransactionIT} on a cluster formatted with {@code transaction.version=1} (no epoch bump at a
 * transaction's end; one epoch for a producer session).
 */
class HangingTransactionVersion1IT extends HangingTransactionIT {

    @Override
    Optional<Short> transactionVersion() {
        return Optional.of((short) 1);
    }
}
