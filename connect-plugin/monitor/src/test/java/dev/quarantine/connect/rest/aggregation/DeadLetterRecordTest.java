package dev.quarantine.connect.rest.aggregation;

import static dev.quarantine.sandbox.Utf8.bytes;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Pattern;

import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.Test;

import dev.quarantine.sandbox.TextHeaders;
import dev.quarantine.txn.DeadLetterHeaders;
import dev.quarantine.connect.rest.discovery.MonitoredTopics;

class DeadLetterRecordTest {

    @Test
    void readsKafkaConnectsHeaders() {
        RecordHeaders headers = TextHeaders.of(DeadLetterHeaders.CONNECT_TOPIC, "orders",
                DeadLetterHeaders.CONNECT_PARTITION, "3", DeadLetterHeaders.CONNECT_OFFSET, "42",
                DeadLetterHeaders.CONNECT_CONNECTOR_NAME, "copy", DeadLetterHeaders.CONNECT_EXCEPTION,
                "org.apache.kafka.connect.errors.DataException", DeadLetterHeaders.CONNECT_EXCEPTION_MESSAGE, "bad");

        DeadLetterRecord record = parse(headers, null, false);

        assertThat(record.format()).isEqualTo("connect");
        assertThat(record.originalTopic()).isEqualTo("orders");
        assertThat(record.originalPartition()).isEqualTo(3);
        assertThat(record.originalOffset()).isEqualTo(42L);
        assertThat(record.connector()).isEqualTo("copy");
        assertThat(record.errorClass()).endsWith("DataException");
        assertThat(record.key()).isNull();
        assertThat(record.value()).isNull();
        assertThat(record.valueSize()).isEqualTo(5);
    }

    @Test
    void readsKafkaStreamsHeadersAndAttributesToTheConnectorNamingTheTopic() {
        RecordHeaders headers = TextHeaders.of(DeadLetterHeaders.STREAMS_EXCEPTION, "java.lang.IllegalStateException",
                DeadLetterHeaders.STREAMS_TOPIC, "clicks", DeadLetterHeaders.STREAMS_PARTITION, "not a number");

        DeadLetterRecord record = parse(headers, "from-config", false);

        assertThat(record.format()).isEqualTo("streams");
        assertThat(record.originalTopic()).isEqualTo("clicks");
        assertThat(record.originalPartition()).isNull();
        assertThat(record.connectorOrUnknown()).isEqualTo("from-config");
    }

    @Test
    void countsARecordWithoutHeadersAsUnknown() {
        DeadLetterRecord record = parse(new RecordHeaders(), null, false);
        TopicStats stats = new TopicStats();
        stats.add(record);

        assertThat(record.format()).isEqualTo("unknown");
        assertThat(stats.byErrorClass()).containsExactly(Map.entry(DeadLetterRecord.UNKNOWN, 1L));
        assertThat(stats.byOriginalTopic()).containsExactly(Map.entry(DeadLetterRecord.UNKNOWN, 1L));
    }

    @Test
    void keepsAtMostTheConfiguredPayloadOnlyWhenExposed() {
        DeadLetterRecord record = parse(new RecordHeaders(), null, true);

        assertThat(record.key()).containsExactly((byte) 'k');
        assertThat(record.value()).containsExactly((byte) 'v');
    }

    @Test
    void survivesTheStoreCodecAndMergesPartitionsByAddingUp() {
        DeadLetterRecord record = parse(TextHeaders.of(DeadLetterHeaders.CONNECT_EXCEPTION, "E"), null, true);
        DeadLetterRecord copy = Codec.decode(Codec.encode(record, DeadLetterRecord::write), DeadLetterRecord::read);
        TopicStats a = new TopicStats();
        a.add(record);
        TopicStats b = Codec.decode(Codec.encode(a, TopicStats::write), TopicStats::read);

        assertThat(copy.errorClass()).isEqualTo("E");
        assertThat(copy.value()).isEqualTo(record.value());
        assertThat(a.merge(b).total()).isEqualTo(2);
        assertThat(a.byErrorClass()).containsEntry("E", 2L);
    }

    @Test
    void subscribesToNamedTopicsLiterallyAndToThePattern() {
        TreeMap<String, TreeSet<String>> named = new TreeMap<>(Map.of("a.dlq", new TreeSet<>(List.of("c1"))));
        MonitoredTopics topics = new MonitoredTopics(named, List.of("b-dlq"), Optional.of(Pattern.compile(".*-errors")));

        assertThat(topics.subscription().matcher("a.dlq").matches()).isTrue();
        assertThat(topics.subscription().matcher("aXdlq").matches()).isFalse();
        assertThat(topics.subscription().matcher("x-errors").matches()).isTrue();
        assertThat(topics.connectorOf("a.dlq")).isEqualTo("c1");
        assertThat(MonitoredTopics.none().subscription().matcher("anything").matches()).isFalse();
        assertThat(topics.fingerprint()).hasSize(8).isNotEqualTo(MonitoredTopics.none().fingerprint());
    }

    private static DeadLetterRecord parse(RecordHeaders headers, String hint, boolean payload) {
        return DeadLetterRecord.parse("dlq", 0, 7, 1_000L, bytes("key"), bytes("value"), headers, hint, payload, 1);
    }
}
