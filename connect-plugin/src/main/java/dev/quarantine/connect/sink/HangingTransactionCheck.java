package dev.quarantine.connect.sink;

import java.util.Collection;

/**
 * What a writer calls before its producer first writes to topics: {@link HangingTransactions} in the task, a
 * recording lambda in the writer's unit tests.
 */
@FunctionalInterface
interface HangingTransactionCheck {

    /** Aborts what earlier producers of {@code transactionalId} left hanging on the partitions of {@code topics}. */
    void abortBeforeWriting(String transactionalId, Collection<String> topics);
}
