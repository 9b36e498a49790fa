package dev.quarantine.connect.sink.cluster;

import dev.quarantine.sandbox.LocalKafka;

/**
 * {@link TimedOutTransactionIT} on a broker formatted with {@code transaction.version=1}: the coordinator's abort
 * completes at the epoch its fence bumped to, one above the records'.
 */
class TimedOutTransactionVersion1IT extends TimedOutTransactionIT {

    @Override
    LocalKafka broker() {
        return super.broker().withFeature(HangingTransactions.TRANSACTION_VERSION, (short) 1);
    }
}
