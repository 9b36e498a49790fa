package dev.quarantine.connect.rest.aggregation;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;

import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

import org.apache.kafka.clients.consumer.ConsumerRecords;


import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import dev.quarantine.sandbox.LocalKafka;
import dev.quarantine.sandbox.LocalKafkaExtension;
import dev.quarantine.connect.rest.InProcessMonitor;
import dev.quarantine.connect.rest.MonitorConfig;
import dev.quarantine.connect.rest.http.MonitorException;

/**
 * A stream thread of the monitor's aggregation that meets an {@link Error} (as a kafka-streams that does not fit the
 * worker would throw): the run stops, the answers say what stopped it until a new run is running, and the monitor
 * keeps trying. On a real broker, in process.
 */
@ExtendWith(LocalKafkaExtension.class)
class MonitorStreamThreadErrorIT {

    private static final Duration DEADLINE = Duration.ofSeconds(90);
    private static final long POLL_NANOS = Duration.ofMillis(50).toNanos();

    @Test
    void aStreamThreadThatMeetsALinkageErrorStopsTheRunAndEveryAnswerSaysSoWhileTheMonitorKeepsTrying(
            LocalKafka kafka) {
        String dlq = "stream-thread-error-" + UUID.randomUUID().toString().substring(0, 8);
        kafka.createTopic(dlq, 1, Map.of());
        InProcessMonitor.produceDeadLetters(kafka, dlq, 1);
        LinkageFailingInterceptor.CALLS.set(0);
        Map<String, Object> settings = Map.of("group.id", dlq + "-group", "bootstrap.servers",
                kafka.bootstrapServers(), MonitorConfig.TOPICS_CONFIG, dlq,
                MonitorConfig.DISCOVERY_INTERVAL_MS_CONFIG, "500", MonitorConfig.STREAMS_PREFIX
                        + "main.consumer.interceptor.classes", LinkageFailingInterceptor.class.getName(),
                // the failed run's member, whose thread died without leaving the group, is forgotten after this
                // (the broker's least), not Kafka's 45 s: the next run's assignment waits for that
                MonitorConfig.STREAMS_PREFIX + "main.consumer.session.timeout.ms", "6000");
        try (Monitor monitor = InProcessMonitor.create(settings)) {
            monitor.start();

            MonitorException answer = awaitAnswerNaming(monitor, "stopped (java.lang.NoSuchMethodError)");
            assertThat(answer.status()).isEqualTo(503);
            assertThat(answer.publicMessage()).contains("retrying");
            int calls = LinkageFailingInterceptor.CALLS.get();
            awaitAnswerNaming(monitor, "stopped (java.lang.NoSuchMethodError)");
            awaitCallsAbove(calls);
        }
    }

    private static MonitorException awaitAnswerNaming(Monitor monitor, String text) {
        Instant deadline = Instant.now().plus(DEADLINE);
        String last = null;
        while (Instant.now().isBefore(deadline)) {
            try {
                monitor.current();
                last = "an answer from a run";
            } catch (MonitorException e) {
                if (e.publicMessage().contains(text)) {
                    return e;
                }
                last = e.publicMessage();
            }
            LockSupport.parkNanos(POLL_NANOS);
        }
        throw new AssertionError("an answer naming '" + text + "' within " + DEADLINE + "; last: " + last);
    }

    /** A new run met the Error again: the monitor kept trying. */
    private static void awaitCallsAbove(int calls) {
        Instant deadline = Instant.now().plus(DEADLINE);
        while (LinkageFailingInterceptor.CALLS.get() <= calls) {
            assertThat(Instant.now()).as("a new run of the aggregation within %s (the monitor keeps trying)",
                    DEADLINE).isBefore(deadline);
            LockSupport.parkNanos(POLL_NANOS);
        }
    }

    /** Fails the stream thread's poll as a method missing from an older kafka-clients would. */
    public static final class LinkageFailingInterceptor extends ConsumeOnlyInterceptor {

        static final AtomicInteger CALLS = new AtomicInteger();

        @Override
        public ConsumerRecords<byte[], byte[]> onConsume(ConsumerRecords<byte[], byte[]> records) {
            CALLS.incrementAndGet();
            throw new NoSuchMethodError("ConsumerRecords.nextOffsets()");
        }
    }
}
