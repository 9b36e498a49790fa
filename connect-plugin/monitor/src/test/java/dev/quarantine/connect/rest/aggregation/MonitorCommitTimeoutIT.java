package dev.quarantine.connect.rest.aggregation;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.locks.LockSupport;

import org.apache.kafka.common.protocol.ApiKeys;
import org.junit.jupiter.api.Test;

import dev.quarantine.connect.rest.InProcessMonitor;
import dev.quarantine.connect.rest.MonitorConfig;
import dev.quarantine.sandbox.Await;
import dev.quarantine.sandbox.HoldingProxy;
import dev.quarantine.sandbox.LocalKafka;

/**
 * The aggregation's {@code commitTransaction} times out while it reads a backlog (its {@code EndTxn} request held
 * past the producer's {@code max.block.ms} by a proxy, as a loaded coordinator did in a test run; a stopped broker
 * cannot stage it: the commit then waits in its flush, which has no timeout): every dead letter is still counted
 * exactly once. Kafka Streams revives the tasks and goes on processing with the producer whose commit is pending; each
 * changelog write fails with the producer's "must be retried", and Kafka's
 * {@code LogAndContinueProcessingExceptionHandler} skipped those letters and then committed them as read (the system
 * property {@code monitor.it.processing.exception.handler} set to
 * {@code org.apache.kafka.streams.errors.LogAndContinueProcessingExceptionHandler} makes this test fail). On a real
 * broker of its own (behind the proxy), the monitor in process.
 */
class MonitorCommitTimeoutIT {

    private static final Duration DEADLINE = Duration.ofSeconds(150);
    private static final String DLQ = "commit-timeout-dlq";
    private static final int BACKLOG = 5_000;
    private static final int LATER = 100;

    @Test
    void everyDeadLetterIsCountedOnceWhenACommitTimesOutWhileABacklogIsRead() {
        try (HoldingProxy proxy = HoldingProxy.listen();
             LocalKafka kafka = proxy.startBroker()) {
            kafka.createTopic(DLQ, 2, Map.of());
            InProcessMonitor.produceDeadLetters(kafka, DLQ, BACKLOG, 1);
            Map<String, Object> settings = new HashMap<>(Map.of("group.id", "commit-timeout", "bootstrap.servers",
                    kafka.bootstrapServers(), MonitorConfig.TOPICS_CONFIG, DLQ,
                    MonitorConfig.DISCOVERY_INTERVAL_MS_CONFIG, "500"));
            settings.put(MonitorConfig.STREAMS_PREFIX + "producer.max.block.ms", "1000");
            settings.put(MonitorConfig.STREAMS_PREFIX + "commit.interval.ms", "100");
            settings.put(MonitorConfig.STREAMS_PREFIX + "main.consumer.max.poll.records", "5");
            settings.put(MonitorConfig.STREAMS_PREFIX + "main.consumer.session.timeout.ms", "6000");
            String handler = System.getProperty("monitor.it.processing.exception.handler");
            if (handler != null) { // the mutation: Kafka's LogAndContinueProcessingExceptionHandler
                settings.put(MonitorConfig.STREAMS_PREFIX + "processing.exception.handler", handler);
            }
            try (Monitor monitor = InProcessMonitor.create(settings)) {
                monitor.start();
                Await.value("the monitor counting the backlog", DEADLINE, () -> total(monitor) > 20 ? true : null);

                proxy.hold(ApiKeys.END_TXN);
                proxy.awaitHeld(DEADLINE);
                // the commit times out, and so does each commit after it while EndTxn is held; Kafka Streams revives
                // the tasks and processes these letters with the producer whose commit is pending
                InProcessMonitor.produceDeadLetters(kafka, DLQ, LATER, 2);
                Await.value("the premise: a changelog write failed after the commit timed out (a stream thread"
                        + " failed on it, or, with another handler, a letter was dropped)", DEADLINE,
                        () -> sum(monitor, "failed-stream-threads") + sum(monitor, "dropped-records-total") > 0
                                ? true : null);
                proxy.release();

                long expected = BACKLOG + LATER;
                Await.value("the monitor's totals of all " + expected + " dead letters", DEADLINE, () -> {
                    long total = total(monitor);
                    return total >= expected ? total : null;
                });
                // never more (a letter counted twice); a commit that times out on its own on a loaded machine may
                // revive a task from its changelog for a moment (less), then it counts them again
                Instant until = Instant.now().plusSeconds(3);
                while (Instant.now().isBefore(until)) {
                    assertThat(total(monitor)).as("counted once each").isLessThanOrEqualTo(expected);
                    LockSupport.parkNanos(Duration.ofMillis(200).toNanos());
                }
                Await.value("the totals of all " + expected + " again", DEADLINE,
                        () -> total(monitor) == expected ? true : null);
                Await.value("the stream thread that failed to end (its producer closed)", DEADLINE,
                        () -> Thread.getAllStackTraces().keySet().stream().noneMatch(thread ->
                                thread.getName().startsWith("commit-timeout-dead-letter-monitor-")
                                        && thread.getName().endsWith("-StreamThread-1")) ? true : null);
            }
        }
    }

    /** The sum of Kafka Streams' metrics named {@code name}, over its threads and tasks. */
    private static double sum(Monitor monitor, String name) {
        return monitor.current().streams().metrics().values().stream()
                .filter(metric -> metric.metricName().name().equals(name))
                .mapToDouble(metric -> ((Number) metric.metricValue()).doubleValue()).sum();
    }

    /** The total over both partitions, or -1 while the aggregation does not answer. */
    private static long total(Monitor monitor) {
        try {
            long sum = 0;
            for (int partition = 0; partition < 2; partition++) {
                TopicStats stats = new LocalReader(monitor.current().queries(), Duration.ofSeconds(1))
                        .read(partition, new PartitionFigures.Query(DLQ, 0), System.currentTimeMillis())
                        .stats().get(DLQ);
                sum += stats == null ? 0 : stats.total();
            }
            return sum;
        } catch (RuntimeException notReadyYet) {
            return -1;
        }
    }
}
