package dev.quarantine.txn;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Map;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Stream;

import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.InvalidRecordException;
import org.apache.kafka.common.errors.InvalidTimestampException;
import org.apache.kafka.common.errors.InvalidTopicException;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The gate's decision, row by row: admit, leave out (with which error), or throw. */
class RecordGateTest {

    private static final int MAX_REQUEST_SIZE = 2_000;
    private static final long BUFFER_MEMORY = 1_000_000;
    private static final int TOPIC_LIMIT = 1_000;
    private static final long HOUR_MS = 3_600_000;

    /** A String value of n ASCII characters, no key, no headers: the producer estimates it at 84 + varint(n) + n. */
    private static final int AT_MAX_REQUEST_SIZE = MAX_REQUEST_SIZE - 86;
    /** ... and the broker sees a batch of 61 + varint(n + 7) + n + 7 bytes. */
    private static final int AT_TOPIC_LIMIT = TOPIC_LIMIT - 70;

    enum Decision { ADMIT, LEAVE_OUT, THROW }

    record Row(String name, ProducerRecord<String, Object> record, Decision decision,
               Class<? extends Throwable> error, String message) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Row> rows() {
        long now = System.currentTimeMillis();
        return Stream.of(
                admit("a small record to a known topic", record("orders", null, "v")),
                admit("exactly at max.request.size", record("big-topic", null, value(AT_MAX_REQUEST_SIZE))),
                leaveOut("one byte over max.request.size", record("big-topic", null, value(AT_MAX_REQUEST_SIZE + 1)),
                        RecordTooLargeException.class, "max.request.size"),
                admit("exactly at the topic's max.message.bytes", record("orders", null, value(AT_TOPIC_LIMIT))),
                leaveOut("one byte over the topic's max.message.bytes",
                        record("orders", null, value(AT_TOPIC_LIMIT + 1)), RecordTooLargeException.class,
                        "max.message.bytes"),
                leaveOut("an illegal topic name", record("bad topic", null, "v"), InvalidTopicException.class,
                        "bad topic"),
                leaveOut("a topic that does not exist", record("missing", null, "v"),
                        UnknownTopicOrPartitionException.class, "auto.create.topics.enable"),
                admit("the last partition of a topic", partitioned("orders", 2)),
                leaveOut("a partition beyond the topic's", partitioned("orders", 3),
                        UnknownTopicOrPartitionException.class, "has 3 partitions"),
                leaveOut("no key on a compacted topic", record("compacted", null, "v"), InvalidRecordException.class,
                        "cleanup.policy"),
                admit("a key on a compacted topic", record("compacted", "k", "v")),
                leaveOut("a timestamp older than message.timestamp.before.max.ms", stamped("orders", now - 2 * HOUR_MS),
                        InvalidTimestampException.class, "message.timestamp.before.max.ms"),
                leaveOut("a timestamp further ahead than message.timestamp.after.max.ms",
                        stamped("orders", now + 2 * HOUR_MS), InvalidTimestampException.class,
                        "message.timestamp.after.max.ms"),
                admit("a timestamp just within message.timestamp.after.max.ms",
                        stamped("orders", now + HOUR_MS - 60_000)),
                admit("a timestamp just within message.timestamp.before.max.ms",
                        stamped("orders", now - HOUR_MS + 60_000)),
                leaveOut("a timestamp further ahead than after.max.ms on a topic with no before.max.ms",
                        stamped("future-only", now + 2 * HOUR_MS), InvalidTimestampException.class,
                        "message.timestamp.after.max.ms"),
                admit("a very old timestamp on a topic with Kafka's default before.max.ms",
                        stamped("future-only", 0L)),
                admit("an old timestamp on a LogAppendTime topic", stamped("appended", now - 2 * HOUR_MS)),
                leaveOut("a value the serializer cannot take", record("orders", null, 42), SerializationException.class,
                        "value.serializer"),
                leaveOut("a topic that cannot be described in time", record("slow", null, "v"), TimeoutException.class,
                        "max.block.ms"),
                new Row("a topic the producer may not describe", record("secret", null, "v"), Decision.THROW,
                        TopicAuthorizationException.class, ""),
                new Row("a header without a key", withNullHeaderKey(), Decision.THROW, IllegalArgumentException.class,
                        "null header key"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rows")
    void decides(Row row) {
        RecordGate<String, Object> gate = gate(checkedTopics(false));
        switch (row.decision()) {
            case ADMIT -> assertThat(gate.admit(row.record())).isEmpty();
            case LEAVE_OUT -> assertThat(gate.admit(row.record())).get()
                    .isInstanceOf(row.error()).extracting(Throwable::getMessage).asString().contains(row.message());
            case THROW -> assertThatThrownBy(() -> gate.admit(row.record())).isInstanceOf(row.error())
                    .hasMessageContaining(row.message());
        }
    }

    @Test
    void admitsARecordToAMissingTopicWhenTheBrokersCreateTopicsOnFirstUse() {
        RecordGate<String, Object> gate = gate(checkedTopics(true));

        assertThat(gate.admit(record("missing", null, "v"))).isEmpty();
    }

    @Test
    void checksOnlyWhatTheProducerChecksWhenTopicChecksAreOff() {
        RecordGate<String, Object> gate = gate(null);

        assertThat(gate.admit(record("missing", null, "v"))).isEmpty();
        assertThat(gate.admit(record("orders", null, value(AT_TOPIC_LIMIT + 1)))).isEmpty();
        assertThat(gate.admit(record("orders", null, value(AT_MAX_REQUEST_SIZE + 1)))).get()
                .isInstanceOf(RecordTooLargeException.class);
        assertThat(gate.admit(record("bad topic", null, "v"))).get().isInstanceOf(InvalidTopicException.class);
    }

    @Test
    void checksTheNameOfEveryTopicNotOnlyTheFirst() {
        RecordGate<String, Object> gate = gate(checkedTopics(false));

        assertThat(gate.admit(record("orders", null, "v"))).isEmpty();
        assertThat(gate.admit(record("bad topic", null, "v"))).get().isInstanceOf(InvalidTopicException.class);
        assertThat(gate.admit(record(new String("bad topic"), null, "v"))).as("an equal name, another String")
                .get().isInstanceOf(InvalidTopicException.class);
    }

    private static RecordGate<String, Object> gate(TopicMetadataCache topics) {
        @SuppressWarnings({"unchecked", "rawtypes"})
        Serializer<Object> values = (Serializer) new StringSerializer();
        RecordSerializer<String, Object> serializer = RecordSerializer.separate(Map.of(), new StringSerializer(),
                values);
        return new RecordGate<>(serializer, new RecordChecks(MAX_REQUEST_SIZE, BUFFER_MEMORY, topics), topics);
    }

    private static TopicMetadataCache checkedTopics(boolean autoCreate) {
        return new TopicMetadataCache(new FixedTopics(autoCreate), Duration.ofMinutes(1), Duration.ofMillis(100),
                Duration.ZERO);
    }

    /** The cluster of these rows. */
    private record FixedTopics(boolean autoCreate) implements TopicDescriber {

        @Override
        public CompletableFuture<TopicInfo> describe(String topic) {
            return switch (topic) {
                case "orders" -> CompletableFuture.completedFuture(new TopicInfo(true, 3, OptionalInt.of(TOPIC_LIMIT),
                        false, true, OptionalLong.of(HOUR_MS), OptionalLong.of(HOUR_MS)));
                case "big-topic" -> CompletableFuture.completedFuture(TopicInfo.withoutConfigs(1));
                case "compacted" -> CompletableFuture.completedFuture(new TopicInfo(true, 1, OptionalInt.empty(),
                        true, true, OptionalLong.empty(), OptionalLong.empty()));
                case "future-only" -> CompletableFuture.completedFuture(new TopicInfo(true, 1, OptionalInt.empty(),
                        false, true, OptionalLong.of(Long.MAX_VALUE), OptionalLong.of(HOUR_MS)));
                case "appended" -> CompletableFuture.completedFuture(new TopicInfo(true, 1, OptionalInt.empty(),
                        false, false, OptionalLong.of(HOUR_MS), OptionalLong.of(HOUR_MS)));
                case "slow" -> new CompletableFuture<>();
                case "secret" -> CompletableFuture.failedFuture(new TopicAuthorizationException("not allowed"));
                default -> CompletableFuture.completedFuture(TopicInfo.missing());
            };
        }

        @Override
        public CompletableFuture<Boolean> autoCreateEnabled() {
            return CompletableFuture.completedFuture(autoCreate);
        }

        @Override
        public void close() {
        }
    }

    private static Row admit(String name, ProducerRecord<String, Object> record) {
        return new Row(name, record, Decision.ADMIT, null, null);
    }

    private static Row leaveOut(String name, ProducerRecord<String, Object> record, Class<? extends Throwable> error,
                                String message) {
        return new Row(name, record, Decision.LEAVE_OUT, error, message);
    }

    private static ProducerRecord<String, Object> record(String topic, String key, Object value) {
        return new ProducerRecord<>(topic, key, value);
    }

    private static ProducerRecord<String, Object> partitioned(String topic, int partition) {
        return new ProducerRecord<>(topic, partition, null, "v");
    }

    private static ProducerRecord<String, Object> stamped(String topic, long timestamp) {
        return new ProducerRecord<String, Object>(topic, null, timestamp, null, "v");
    }

    private static ProducerRecord<String, Object> withNullHeaderKey() {
        Header nullKey = new Header() {
            @Override
            public String key() {
                return null;
            }

            @Override
            public byte[] value() {
                return new byte[1];
            }
        };
        return new ProducerRecord<String, Object>("orders", (Integer) null, (String) null, "v",
                new RecordHeaders(new Header[] {nullKey}));
    }

    private static String value(int length) {
        return "x".repeat(length);
    }
}
