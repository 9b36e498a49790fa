package dev.quarantine.connect.sink.cluster;

import java.util.Map;

import dev.quarantine.sandbox.LocalKafka;

/**
 * A broker whose transaction coordinator aborts a timed-out transaction within a second: it looks for them every
 * 500 ms instead of Kafka's 10 s. For the tests of what such an abort leaves ({@link TimedOutTransactionIT}, the
 * coordinator twins of the ownership package).
 */
public final class TimeoutAbortingBroker {

    private TimeoutAbortingBroker() {
    }

    /** The broker, not started, on Kafka's default {@code transaction.version}. */
    public static LocalKafka create() {
        return LocalKafka.create(Map.of("transaction.abort.timed.out.transaction.cleanup.interval.ms", "500"));
    }
}
