package dev.quarantine.connect.sink.cluster;

import java.util.Map;
import java.util.Optional;

import dev.quarantine.sandbox.LocalKafka;

/**
 * A broker whose transaction coordinator aborts a timed-out transaction within a second: it looks for them every
 * 500 ms instead of Kafka's 10 s. For the tests of what such an abort leaves ({@link TimedOutTransactionIT}, the
 * coordinator twins of the ownership package).
 */
public final class TimeoutAbortingBroker {

    private TimeoutAbortingBroker() {
    }

    /** The broker the test classes of this JVM share, or null: one at a time ({@link #shared}). */
    private static LocalKafka shared;
    private static Optional<Short> sharedVersion;

    /** The broker, not started, on Kafka's default {@code transaction.version}. */
    public static LocalKafka create() {
        return LocalKafka.create(Map.of("transaction.abort.timed.out.transaction.cleanup.interval.ms", "500"));
    }

    /**
     * The started broker of the test classes of this JVM at {@code transactionVersion} (Kafka's default when empty):
     * the one the previous class used when it has that version, else a new one (the previous one closed). Each test
     * uses topics and transactional ids of its own; the last broker ends with the JVM (the sandbox's shutdown hooks).
     */
    public static synchronized LocalKafka shared(Optional<Short> transactionVersion) {
        if (shared != null && !sharedVersion.equals(transactionVersion)) {
            shared.close();
            shared = null;
        }
        if (shared == null) {
            LocalKafka broker = create();
            transactionVersion.ifPresent(level -> broker.withFeature(HangingTransactions.TRANSACTION_VERSION, level));
            shared = broker.start();
            sharedVersion = transactionVersion;
        }
        return shared;
    }
}
