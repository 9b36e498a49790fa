package dev.quarantine.connect.sink;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

/** Closing writers at the same time: what a close that fails does. */
class ParallelCloseTest {

    private final Set<String> closed = ConcurrentHashMap.newKeySet();
    private final Map<TopicPartition, Throwable> failures = new ConcurrentHashMap<>();

    @Test
    void aCloseFailingWithALinkageErrorIsReportedWithItsPartitionAndTheOthersStillClose() {
        NoSuchMethodError linkage = new NoSuchMethodError("KafkaProducer.close(Duration)");
        KafkaException broken = new KafkaException("Failed to close kafka producer");

        closer(name -> {
            if (name.equals("linkage")) {
                throw linkage;
            }
            if (name.equals("broken")) {
                throw broken;
            }
        }).closeAll(List.of("orders", "linkage", "broken", "payments"), Duration.ofSeconds(10));

        assertThat(closed).containsExactlyInAnyOrder("orders", "payments");
        assertThat(failures).containsExactlyInAnyOrderEntriesOf(Map.of(
                new TopicPartition("linkage", 0), linkage, new TopicPartition("broken", 0), broken));
    }

    private interface Close {
        void close(String name);
    }

    private ParallelClose<String> closer(Close close) {
        return new ParallelClose<>(name -> new TopicPartition(name, 0), (name, timeout) -> {
            close.close(name);
            closed.add(name);
        }, failures::put);
    }
}
