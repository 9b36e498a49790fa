package dev.quarantine.connect.rest.aggregation;

import static dev.quarantine.sandbox.Utf8.bytes;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Random;

import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.Test;

import dev.quarantine.replay.letters.HeaderText;
import dev.quarantine.sandbox.TextHeaders;
import dev.quarantine.txn.DeadLetterHeaders;
import dev.quarantine.connect.rest.discovery.MonitoredTopics;

/**
 * A few thousand records anyone with write access to a dead-letter topic could shape: random bytes, headers far over
 * 64 KB, duplicate headers, invalid UTF-8, missing and null headers, Kafka Connect's and Kafka Streams' header sets
 * mixed. The aggregation must count every one of them exactly, keep every string it stores bounded, and go on.
 */
class HostileRecordsTest {

    private static final Instant NOW = Instant.parse("2026-01-01T10:00:30Z");
    private static final int RECORDS = 3_000;
    private static final String UNPARSEABLE = HeaderText.UNPARSEABLE;
    private static final String UNKNOWN = DeadLetterRecord.UNKNOWN;
    private static final int MAX_NAME_CHARS = HeaderText.MAX_NAME_CHARS;

    @Test
    void countsEveryHostileRecordExactlyAndKeepsCountingAfterThem() {
        MonitoredTopics topics = new MonitoredTopics(Map.of(), List.of("dlq"), Optional.empty());
        Random random = new Random(20261201L);
        Map<String, Long> expectedClasses = new HashMap<>();
        Map<String, Long> expectedTopics = new HashMap<>();
        long hugeCount = 0;
        try (TopologyTestDriver driver = new TopologyTestDriver(MonitorTopology.build(topics,
                new MonitorTopology.Limits(50, true, 64, 10), () -> topics), props(), NOW)) {
            TestInputTopic<byte[], byte[]> dlq = driver.createInputTopic("dlq", new ByteArraySerializer(),
                    new ByteArraySerializer());
            for (int i = 0; i < RECORDS; i++) {
                Hostile record = hostile(i % 10, random);
                expectedClasses.merge(record.errorClass, 1L, Long::sum);
                expectedTopics.merge(record.originalTopic, 1L, Long::sum);
                hugeCount += record.originalTopic.equals("huge") ? 1 : 0;
                dlq.pipeInput(new TestRecord<>(random.nextBoolean() ? null : randomBytes(random, 100),
                        random.nextInt(5) == 0 ? null : randomBytes(random, 2_000), record.headers,
                        NOW.minusSeconds(random.nextInt(600))));
            }
            dlq.pipeInput(new TestRecord<>(null, bytes("v"),
                    TextHeaders.of(DeadLetterHeaders.CONNECT_EXCEPTION, "LAST"), NOW));

            KeyValueStore<String, TopicStats> stats = driver.getKeyValueStore(MonitorTopology.STATS_STORE);
            KeyValueStore<String, DeadLetterRecord> recent = driver.getKeyValueStore(MonitorTopology.RECENT_STORE);
            TopicStats counted = stats.get("dlq");

            assertThat(counted.total()).isEqualTo(RECORDS + 1);
            Map<String, Long> classes = new HashMap<>(counted.byErrorClass());
            expectedClasses.put("LAST", 1L);
            assertThat(classes).containsExactlyInAnyOrderEntriesOf(expectedClasses);
            Map<String, Long> originals = new HashMap<>(counted.byOriginalTopic());
            String hugeTopic = originals.keySet().stream().filter(k -> k.startsWith("Tttt")).findFirst()
                    .orElseThrow();
            assertThat(originals.remove(hugeTopic)).isEqualTo(hugeCount);
            expectedTopics.remove("huge");
            expectedTopics.merge(UNKNOWN, 1L, Long::sum);
            assertThat(originals).containsExactlyInAnyOrderEntriesOf(expectedTopics);
            recent.all().forEachRemaining(kv -> {
                DeadLetterRecord kept = kv.value;
                for (String text : new String[] {kept.errorClass(), kept.originalTopic(), kept.connector(),
                        kept.task(), kept.stage()}) {
                    assertThat(text == null ? 0 : text.length()).as("a kept name").isLessThanOrEqualTo(
                            MAX_NAME_CHARS + 3);
                }
                assertThat(kept.value() == null ? 0 : kept.value().length).isLessThanOrEqualTo(64);
            });
        }
    }

    /** One hostile record and what the monitor must count it as. */
    private record Hostile(RecordHeaders headers, String errorClass, String originalTopic) {
    }

    private static Hostile hostile(int kind, Random random) {
        switch (kind) {
            case 0: { // random header names and bytes: no header family
                RecordHeaders headers = new RecordHeaders();
                for (int h = random.nextInt(4); h > 0; h--) {
                    headers.add("h" + random.nextInt(1000), randomBytes(random, 300));
                }
                return new Hostile(headers, UNKNOWN, UNKNOWN);
            }
            case 1: {
                String errorClass = "C" + random.nextInt(3);
                return new Hostile(TextHeaders.of(DeadLetterHeaders.CONNECT_EXCEPTION, errorClass,
                        DeadLetterHeaders.CONNECT_TOPIC, "orders", DeadLetterHeaders.CONNECT_PARTITION, "1"),
                        errorClass, "orders");
            }
            case 2:
                return new Hostile(TextHeaders.of(DeadLetterHeaders.STREAMS_EXCEPTION, "S",
                        DeadLetterHeaders.STREAMS_TOPIC, "clicks"), "S", "clicks");
            case 3: // both families: the one whose marker comes last (Kafka Connect's) wins
                return new Hostile(TextHeaders.of(DeadLetterHeaders.STREAMS_EXCEPTION, "X",
                        DeadLetterHeaders.STREAMS_TOPIC, "clicks", DeadLetterHeaders.CONNECT_EXCEPTION, "M",
                        DeadLetterHeaders.CONNECT_TOPIC, "orders"), "M", "orders");
            case 4: { // every header far over 64 KB
                String big = "x".repeat(65_536 + random.nextInt(100_000));
                return new Hostile(TextHeaders.of(DeadLetterHeaders.CONNECT_EXCEPTION, "H" + big,
                        DeadLetterHeaders.CONNECT_TOPIC, "T" + big.replace('x', 't'),
                        DeadLetterHeaders.CONNECT_EXCEPTION_MESSAGE, big, DeadLetterHeaders.CONNECT_CONNECTOR_NAME,
                        big, DeadLetterHeaders.CONNECT_TASK_ID, big, DeadLetterHeaders.CONNECT_STAGE, big,
                        DeadLetterHeaders.CONNECT_PARTITION, big, DeadLetterHeaders.ORIGINAL_SIZE, big),
                        UNKNOWN, "huge"); // an over-long error class is no class name
            }
            case 5: { // the same header many times: the last one counts
                RecordHeaders headers = new RecordHeaders();
                for (int h = 0; h < 50; h++) {
                    headers.add(DeadLetterHeaders.CONNECT_EXCEPTION, bytes("D" + h));
                }
                headers.add(DeadLetterHeaders.CONNECT_EXCEPTION, bytes("D"));
                return new Hostile(headers, "D", UNKNOWN);
            }
            case 6: { // not UTF-8
                RecordHeaders headers = new RecordHeaders();
                headers.add(DeadLetterHeaders.CONNECT_EXCEPTION, new byte[] {(byte) 0xC3, 0x28, (byte) 0xFF});
                headers.add(DeadLetterHeaders.CONNECT_TOPIC, new byte[] {'o', (byte) 0xE2, (byte) 0x82});
                return new Hostile(headers, UNKNOWN, UNPARSEABLE); // not UTF-8: no class name
            }
            case 7: // a family without its exception header
                return new Hostile(TextHeaders.of(DeadLetterHeaders.CONNECT_TOPIC, "orders"), UNKNOWN, "orders");
            case 8: { // null header values
                RecordHeaders headers = new RecordHeaders();
                headers.add(DeadLetterHeaders.CONNECT_EXCEPTION, null);
                headers.add(DeadLetterHeaders.STREAMS_TOPIC, null);
                return new Hostile(headers, UNKNOWN, UNKNOWN);
            }
            default: // numbers that are not numbers
                return new Hostile(TextHeaders.of(DeadLetterHeaders.STREAMS_EXCEPTION, "N",
                        DeadLetterHeaders.STREAMS_TOPIC, "clicks", DeadLetterHeaders.STREAMS_PARTITION, "abc",
                        DeadLetterHeaders.STREAMS_OFFSET, "9".repeat(100)), "N", "clicks");
        }
    }

    private static Properties props() {
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "hostile-test");
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        return props;
    }

    private static byte[] randomBytes(Random random, int maxLength) {
        byte[] data = new byte[random.nextInt(maxLength + 1)];
        random.nextBytes(data);
        return data;
    }
}
