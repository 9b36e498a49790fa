package dev.quarantine.benchmarks;

import javax.management.ObjectName;

/**
 * Requests the broker has handled, from its own metrics through JMX: the {@code Count} of
 * {@code kafka.network:type=RequestMetrics,name=RequestsPerSec,request=<api>}, summed over the request versions (one
 * MBean each). The count is cumulative since the broker started, so a rate over a phase of the run is the difference
 * of two reads over the phase's seconds, not Kafka's own exponentially weighted one-minute rate.
 */
final class BrokerRequests {

    private final AttachedJvm broker;

    BrokerRequests(AttachedJvm broker) {
        this.broker = broker;
    }

    /** {@code EndTxn} requests handled so far: one per transaction committed or aborted by a producer. */
    long endTxn() {
        return count("EndTxn");
    }

    private long count(String api) {
        double sum = 0;
        for (ObjectName name : broker.names("kafka.network:type=RequestMetrics,name=RequestsPerSec,request=" + api
                + ",*")) {
            double count = broker.number(name, "Count");
            sum += Double.isNaN(count) ? 0 : count;
        }
        return (long) sum;
    }

    /** {@code requests} counted over {@code nanos}, per second. */
    static double perSecond(long requests, long nanos) {
        return requests / (nanos / 1e9);
    }
}
