package dev.quarantine.connect.rest.aggregation;

import static dev.quarantine.sandbox.Utf8.bytes;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.SortedMap;
import java.util.TreeMap;

import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.WindowStore;
import org.apache.kafka.streams.state.WindowStoreIterator;
import org.junit.jupiter.api.Test;

import dev.quarantine.txn.DeadLetterHeaders;
import dev.quarantine.connect.rest.resources.FiguresJson;
import dev.quarantine.connect.rest.discovery.MonitoredTopics;

class MonitorTopologyTest {

    private static final Instant NOW = Instant.parse("2026-01-01T10:00:30Z");

    @Test
    void aLetterDatedAnHourAheadIsCountedButLeavesTheRatesOfEveryTopicAloneTenMinutesAheadCountsInThem() {
        MonitoredTopics topics = new MonitoredTopics(Map.of(), List.of("dlq", "other-dlq"), Optional.empty());
        try (TopologyTestDriver driver = new TopologyTestDriver(MonitorTopology.build(topics,
                new MonitorTopology.Limits(3, false, 0, 10), () -> topics), props(), NOW)) {
            TestInputTopic<byte[], byte[]> dlq = driver.createInputTopic("dlq", new ByteArraySerializer(),
                    new ByteArraySerializer());
            TestInputTopic<byte[], byte[]> other = driver.createInputTopic("other-dlq", new ByteArraySerializer(),
                    new ByteArraySerializer());
            other.pipeInput(new org.apache.kafka.streams.test.TestRecord<>(null, bytes("v"), new RecordHeaders(), NOW));
            dlq.pipeInput(new org.apache.kafka.streams.test.TestRecord<>(null, bytes("v"), new RecordHeaders(),
                    NOW.plusSeconds(61 * 60)));
            other.pipeInput(new org.apache.kafka.streams.test.TestRecord<>(null, bytes("v"), new RecordHeaders(), NOW));
            other.pipeInput(new org.apache.kafka.streams.test.TestRecord<>(null, bytes("v"), new RecordHeaders(), NOW));
            // a producer's clock ten minutes ahead: in the rates once the worker's clock gets there
            Instant ahead = NOW.plusSeconds(10 * 60);
            dlq.pipeInput(new org.apache.kafka.streams.test.TestRecord<>(null, bytes("v"), new RecordHeaders(), ahead));

            KeyValueStore<String, TopicStats> stats = driver.getKeyValueStore(MonitorTopology.STATS_STORE);
            WindowStore<String, Long> minutes = driver.getWindowStore(MonitorTopology.MINUTES_STORE);
            long minute = NOW.toEpochMilli() - Math.floorMod(NOW.toEpochMilli(), MonitorTopology.WINDOW.toMillis());
            assertThat(stats.get("dlq").total()).as("both letters from the future counted").isEqualTo(2);
            assertThat(minutes.fetch("other-dlq", minute)).as("this minute's count of the other topic").isEqualTo(3L);
            long aheadMinute = ahead.toEpochMilli() - Math.floorMod(ahead.toEpochMilli(),
                    MonitorTopology.WINDOW.toMillis());
            assertThat(minutes.fetch("dlq", aheadMinute)).as("ten minutes ahead: kept for the rates").isEqualTo(1L);
        }
    }

    @Test
    void countsEveryRecordAndKeepsOnlyTheNewestInItsRing() {
        MonitoredTopics topics = new MonitoredTopics(Map.of(), List.of("dlq"), Optional.empty());
        try (TopologyTestDriver driver = new TopologyTestDriver(MonitorTopology.build(topics,
                new MonitorTopology.Limits(3, false, 0, 10), () -> topics), props(), NOW)) {
            TestInputTopic<byte[], byte[]> dlq = driver.createInputTopic("dlq", new ByteArraySerializer(),
                    new ByteArraySerializer());
            for (int i = 0; i < 5; i++) {
                RecordHeaders headers = new RecordHeaders();
                headers.add(DeadLetterHeaders.CONNECT_EXCEPTION, bytes(i < 3 ? "A" : "B"));
                headers.add(DeadLetterHeaders.CONNECT_TOPIC, bytes("orders"));
                dlq.pipeInput(new org.apache.kafka.streams.test.TestRecord<>(bytes("k"), bytes("secret"), headers,
                        NOW.minusSeconds(60 - i)));
            }

            KeyValueStore<String, TopicStats> stats = driver.getKeyValueStore(MonitorTopology.STATS_STORE);
            KeyValueStore<String, DeadLetterRecord> recent = driver.getKeyValueStore(MonitorTopology.RECENT_STORE);
            WindowStore<String, Long> minutes = driver.getWindowStore(MonitorTopology.MINUTES_STORE);

            assertThat(stats.get("dlq").total()).isEqualTo(5);
            assertThat(stats.get("dlq").byErrorClass()).containsEntry("A", 3L).containsEntry("B", 2L);
            List<Long> offsets = new ArrayList<>();
            recent.range(MonitorTopology.recentFrom("dlq"), MonitorTopology.recentTo("dlq"))
                    .forEachRemaining(kv -> offsets.add(kv.value.offset()));
            assertThat(offsets).containsExactlyInAnyOrder(2L, 3L, 4L);
            recent.all().forEachRemaining(kv -> assertThat(kv.value.value()).isNull());
            long counted = 0;
            try (WindowStoreIterator<Long> windows = minutes.fetch("dlq", NOW.minusSeconds(600), NOW)) {
                while (windows.hasNext()) {
                    KeyValue<Long, Long> window = windows.next();
                    counted += window.value;
                }
            }
            assertThat(counted).isEqualTo(5);
        }
    }

    @Test
    void keepsNoFiguresOfTopicsBeyondTheCapButCountsTheirRecordsAsOverIt() {
        MonitoredTopics topics = new MonitoredTopics(Map.of(), List.of(), Optional.of(java.util.regex.Pattern
                .compile("dlq-.*")));
        try (TopologyTestDriver driver = new TopologyTestDriver(MonitorTopology.build(topics,
                new MonitorTopology.Limits(3, false, 0, 2), () -> topics), props(), NOW)) {
            for (String topic : List.of("dlq-a", "dlq-b", "dlq-c", "dlq-a", "dlq-c")) {
                driver.createInputTopic(topic, new ByteArraySerializer(), new ByteArraySerializer())
                        .pipeInput(bytes("k"), bytes("v"), NOW);
            }

            KeyValueStore<String, TopicStats> stats = driver.getKeyValueStore(MonitorTopology.STATS_STORE);

            assertThat(stats.get("dlq-a").total()).isEqualTo(2);
            assertThat(stats.get("dlq-b").total()).isEqualTo(1);
            assertThat(stats.get("dlq-c")).isNull();
            assertThat(stats.get(DeadLetterProcessor.OVER_CAP).byOriginalTopic()).containsExactly(
                    Map.entry("dlq-c", 2L));
        }
    }

    @Test
    void ratesSpreadAWindowPartlyInsideThePeriodEvenly() {
        SortedMap<Long, Long> windows = new TreeMap<>();
        long now = 10 * 60_000L + 30_000L; // half way through minute 10
        windows.put(10 * 60_000L, 30L);     // this minute: all inside
        windows.put(9 * 60_000L, 60L);      // the minute before: half inside the last minute
        windows.put(0L, 600L);              // long ago: outside both periods

        assertThat(FiguresJson.rate(windows, now, 1)).isEqualTo((30 + 30) / 60.0);
        assertThat(FiguresJson.rate(windows, now, 15)).isEqualTo(Math.round((30 + 60 + 600) / 900.0 * 1000) / 1000.0);
    }

    private static Properties props() {
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "monitor-test");
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        return props;
    }
}
