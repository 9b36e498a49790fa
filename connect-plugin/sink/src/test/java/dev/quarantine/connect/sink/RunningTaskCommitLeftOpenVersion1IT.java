package dev.quarantine.connect.sink;

import java.util.Optional;

/** {@link RunningTaskCommitLeftOpenIT} on a cluster formatted with {@code transaction.version=1}. */
class RunningTaskCommitLeftOpenVersion1IT extends RunningTaskCommitLeftOpenIT {

    @Override
    Optional<Short> transactionVersion() {
        return Optional.of((short) 1);
    }
}
