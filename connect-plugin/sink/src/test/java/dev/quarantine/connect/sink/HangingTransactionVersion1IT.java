package dev.quarantine.connect.sink;

import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.Test;

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

    /**
     * Fails on a transaction.version=1 broker: the records of the hanging committed transaction (v10..v14) land six
     * times. Known open hole of issue 22 item 5 (a coordinator-ended transaction on TV1 completes at epoch e+1 while
     * its records carry e, so LastTransaction's epoch is wrong); docs/connect-sink.md says TV1 is not covered.
     */
    @Test
    @Disabled("issue 22 item 5 open on transaction.version=1: duplicates; see the javadoc")
    @Override
    void completesACommittedTransactionLeftOpenOnTheProgressPartitionAndResumesAfterIt() {
    }
}
