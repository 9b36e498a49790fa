package dev.quarantine.connect.rest;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.apache.kafka.clients.consumer.ConsumerRecord;

import static dev.quarantine.sandbox.Utf8.text;
import static org.assertj.core.api.Assertions.assertThat;

import dev.quarantine.replay.ReplayConfig;
import dev.quarantine.replay.ReplayEngine;
import dev.quarantine.replay.ReplayListener;
import dev.quarantine.replay.ReplayProgress;
import dev.quarantine.replay.letters.DeadLetterFormat;
import dev.quarantine.sandbox.LocalKafka;
import dev.quarantine.connect.rest.aggregation.DeadLetterRecord;
import dev.quarantine.connect.rest.aggregation.TopicStats;

/** What the tests of dead letters written by other writers (Spring Kafka, share groups) share. */
public final class OtherWritersLetters {

    private OtherWritersLetters() {
    }

    /** Replays {@code dlq} to its original topics, {@code destination} the one allowed, to the end. */
    public static ReplayProgress replayToEnd(LocalKafka kafka, String replayId, String dlq, String destination) {
        Map<String, Object> settings = new HashMap<>();
        settings.put(ReplayConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        settings.put(ReplayConfig.REPLAY_ID_CONFIG, replayId);
        settings.put(ReplayConfig.DLQ_TOPIC_CONFIG, dlq);
        settings.put(ReplayConfig.DESTINATIONS_ALLOWED_CONFIG, destination);
        try (ReplayEngine engine = new ReplayEngine(new ReplayConfig(settings), ReplayEngine.Mode.WRITE,
                ReplayListener.NONE)) {
            ReplayProgress progress = engine.start();
            while (!progress.finished()) {
                progress = engine.step();
            }
            return progress;
        }
    }

    public static ConsumerRecord<byte[], byte[]> byKey(List<ConsumerRecord<byte[], byte[]>> records, byte[] key) {
        return records.stream().filter(r -> text(r.key()).equals(text(key))).findFirst().orElseThrow();
    }

    /**
     * Reads each of {@code letters} as the monitor does and asserts that it names its format, the original topic,
     * the partition and offset of its record among {@code failed}, and {@code connector}; returns the counts.
     */
    public static TopicStats readEach(List<ConsumerRecord<byte[], byte[]>> letters, List<ConsumerRecord<byte[],
            byte[]>> failed,
                               DeadLetterFormat format, String originalTopic, String connector) {
        TopicStats stats = new TopicStats();
        for (ConsumerRecord<byte[], byte[]> letter : letters) {
            DeadLetterRecord read = DeadLetterRecord.parse(letter.topic(), letter.partition(), letter.offset(),
                    letter.timestamp(), letter.key(), letter.value(), letter.headers(), null, false, 0);
            stats.add(read);
            ConsumerRecord<byte[], byte[]> original = byKey(failed, letter.key());
            assertThat(read.format()).isEqualTo(format.label());
            assertThat(read.originalTopic()).isEqualTo(originalTopic);
            assertThat(read.originalPartition()).isEqualTo(original.partition());
            assertThat(read.originalOffset()).isEqualTo(original.offset());
            assertThat(read.connector()).isEqualTo(connector);
        }
        return stats;
    }
}
