package dev.quarantine.connect.rest.aggregation;

import static dev.quarantine.connect.rest.OtherWritersLetters.byKey;
import static dev.quarantine.sandbox.Utf8.text;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.kafka.listener.DeadLetterPublishingRecoverer;
import org.springframework.kafka.listener.ListenerExecutionFailedException;

import dev.quarantine.replay.ReplayProgress;
import dev.quarantine.replay.RealDeadLetterWriters;
import dev.quarantine.replay.letters.DeadLetterFormat;
import dev.quarantine.sandbox.LocalKafka;
import dev.quarantine.sandbox.LocalKafkaExtension;
import dev.quarantine.sandbox.TopicReader;
import dev.quarantine.connect.rest.MonitorConfig;
import dev.quarantine.connect.rest.OtherWritersLetters;

/**
 * Dead letters written by Spring Kafka's own {@link DeadLetterPublishingRecoverer} (spring-kafka 4.0.8, as a listener
 * container calls it: the failed record and a {@link ListenerExecutionFailedException} naming the group) on a real
 * broker: the monitor's default topic pattern finds {@code orders-dlt}, the monitor classifies them (format spring,
 * the root cause's class, the original topic, partition and offset, the group), and a replay sends each back to its
 * original topic and partition once, with its original timestamp and without the {@code kafka_dlt-*} headers.
 */
@ExtendWith(LocalKafkaExtension.class)
class SpringDeadLettersIT {

    private static final Duration DEADLINE = Duration.ofSeconds(60);
    private static final int LETTERS = 10;

    @Test
    void springDeadLettersAreClassifiedAndReplayedToTheirOriginalTopicPartitionAndTime(LocalKafka kafka) {
        String orders = "springorders";
        String dlt = orders + "-dlt";
        kafka.createTopic(orders, 3, Map.of());
        kafka.createTopic(dlt, 3, Map.of());
        List<ConsumerRecord<byte[], byte[]>> failed = RealDeadLetterWriters.oldOrders(kafka, orders, LETTERS, DEADLINE);
        assertThat(failed).hasSize(LETTERS);
        RealDeadLetterWriters.spring(kafka, failed, "order-service", new IllegalStateException("bad order"));
        List<ConsumerRecord<byte[], byte[]>> letters = TopicReader.readCommitted(kafka, dlt, DEADLINE);

        Map<String, Object> worker = new HashMap<>();
        worker.put("group.id", "connect-cluster");
        worker.put("bootstrap.servers", kafka.bootstrapServers());
        worker.put("rest.advertised.host.name", "127.0.0.1");
        worker.put("rest.advertised.port", "8083");
        assertThat(new MonitorConfig(worker).topicsRegex().orElseThrow().matcher(dlt).matches())
                .as("the default topic pattern finds Spring's <topic>-dlt").isTrue();
        TopicStats stats = OtherWritersLetters.readEach(letters, failed, DeadLetterFormat.SPRING, orders, "order-service");
        assertThat(stats.total()).isEqualTo(LETTERS);
        assertThat(stats.byErrorClass()).containsExactly(Map.entry(IllegalStateException.class.getName(),
                (long) LETTERS));
        assertThat(stats.byOriginalTopic()).containsExactly(Map.entry(orders, (long) LETTERS));

        ReplayProgress done = OtherWritersLetters.replayToEnd(kafka, "spring-1", dlt, orders);

        assertThat(done.counts().replayed()).isEqualTo(LETTERS);
        List<ConsumerRecord<byte[], byte[]>> all = TopicReader.readCommitted(kafka, orders, DEADLINE);
        List<ConsumerRecord<byte[], byte[]>> replayed = all.stream().filter(r -> !failed.stream()
                .anyMatch(f -> f.partition() == r.partition() && f.offset() == r.offset())).toList();
        assertThat(replayed).hasSize(LETTERS);
        assertThat(replayed.stream().map(r -> text(r.key())).collect(Collectors.toSet())).hasSize(LETTERS);
        for (ConsumerRecord<byte[], byte[]> back : replayed) {
            ConsumerRecord<byte[], byte[]> original = byKey(failed, back.key());
            assertThat(back.partition()).as("partition of " + text(back.key())).isEqualTo(original.partition());
            assertThat(back.timestamp()).as("timestamp of " + text(back.key())).isEqualTo(original.timestamp());
            assertThat(back.value()).isEqualTo(original.value());
            for (Header header : back.headers()) {
                assertThat(header.key()).doesNotStartWith("kafka_dlt-");
            }
            assertThat(back.headers().lastHeader("trace-id")).as("the record's own header is kept").isNotNull();
        }
    }

}
