package dev.quarantine.connect.sink;

import dev.quarantine.connect.sink.cluster.HangingTransactions;
import dev.quarantine.sandbox.LocalKafka;

/** {@link RunningTaskCommitLeftOpenIT} on a broker formatted with {@code transaction.version=1}. */
class RunningTaskCommitLeftOpenVersion1IT extends RunningTaskCommitLeftOpenIT {

    @Override
    LocalKafka broker() {
        return LocalKafka.create().withFeature(HangingTransactions.TRANSACTION_VERSION, (short) 1);
    }
}
