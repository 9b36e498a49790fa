package dev.quarantine.connect.sink;

import dev.quarantine.sandbox.LocalKafka;

/**
 * {@link HangingTransactionIT} on a broker formatted with {@code transaction.version=1} (no epoch bump at a
 * transaction's end; one epoch for a producer session).
 */
class HangingTransactionVersion1IT extends HangingTransactionIT {

    @Override
    LocalKafka broker() {
        return LocalKafka.create().withFeature(HangingTransactions.TRANSACTION_VERSION, (short) 1);
    }
}
