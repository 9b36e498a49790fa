package dev.quarantine.connect.sink;

import static dev.quarantine.connect.sink.TestData.header;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.function.IntPredicate;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArraySerializer;

import dev.quarantine.sandbox.LocalKafka;
import dev.quarantine.sandbox.Utf8;

/**
 * Numbered input records of the fault tests: record {@code i} goes to source partition {@code i % partitions} with key
 * {@code key-i} and header {@code id=i}; one in 50 (unless a test says otherwise) has a 6,000-byte value, too large
 * for the target topics' max.message.bytes of 4096 (a poison record). Checks that each landed exactly once in the
 * target or the DLQ.
 */
final class NumberedRecords {

    static final String PLUGIN = TransactionalKafkaSinkConnector.class.getName();
    static final int TARGET_MAX_MESSAGE_BYTES = 4096;

    private final LocalKafka kafka;
    private final String topic;
    private final int partitions;
    private final IntPredicate poison;

    /** Records whose poison ones are those of {@link #isPoison}. */
    NumberedRecords(LocalKafka kafka, String topic, int partitions) {
        this(kafka, topic, partitions, NumberedRecords::isPoison);
    }

    /** Records whose poison ones are those {@code poison} accepts. */
    NumberedRecords(LocalKafka kafka, String topic, int partitions, IntPredicate poison) {
        this.kafka = kafka;
        this.topic = topic;
        this.partitions = partitions;
        this.poison = poison;
    }

    /** Two tasks copying the source topic to {@code copy.<topic>}, poison to {@code dlq}; created topics take 4 KiB. */
    Map<String, String> connectorConfig(String dlq) {
        return TestData.props(
                "connector.class", PLUGIN,
                "tasks.max", "2",
                "topics", topic,
                "key.converter", "org.apache.kafka.connect.converters.ByteArrayConverter",
                "value.converter", "org.apache.kafka.connect.converters.ByteArrayConverter",
                "header.converter", "org.apache.kafka.connect.converters.ByteArrayConverter",
                "consumer.override.max.poll.records", "200",
                "consumer.override.isolation.level", "read_committed",
                "target.bootstrap.servers", kafka.bootstrapServers(),
                "target.topic.format", "copy.${topic}",
                "target.topic.creation.max.message.bytes", String.valueOf(TARGET_MAX_MESSAGE_BYTES),
                "dlq.topic.name", dlq);
    }

    String target() {
        return "copy." + topic;
    }

    static boolean isPoison(int id) {
        return id % 50 == 7;
    }

    /** Produces records {@code from..to-1} and waits until the broker has them. */
    void produce(int from, int to) {
        Properties props = kafka.clientProps();
        props.put(ProducerConfig.LINGER_MS_CONFIG, "5");
        try (KafkaProducer<byte[], byte[]> producer =
                     new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer())) {
            for (int i = from; i < to; i++) {
                byte[] value = ("id=" + i + ";").getBytes(StandardCharsets.UTF_8);
                if (poison.test(i)) {
                    value = Arrays.copyOf(value, 6000);
                }
                RecordHeaders headers = new RecordHeaders();
                headers.add("id", String.valueOf(i).getBytes(StandardCharsets.UTF_8));
                producer.send(new ProducerRecord<>(topic, i % partitions, null,
                        ("key-" + i).getBytes(StandardCharsets.UTF_8), value, headers));
            }
        }
    }

    /** How many of records {@code 0..total-1} are good (to be copied) and poison (to be dead-lettered). */
    int good(int total) {
        return (int) IntStream.range(0, total).filter(i -> !poison.test(i)).count();
    }

    int poison(int total) {
        return total - good(total);
    }

    /** Every good record of {@code 0..total-1} once in {@code copied}, every poison record once in {@code letters}. */
    void assertExactlyOnce(List<ConsumerRecord<byte[], byte[]>> copied, List<ConsumerRecord<byte[], byte[]>> letters,
                           int total) {
        Set<Integer> good = IntStream.range(0, total).filter(i -> !poison.test(i)).boxed().collect(Collectors.toSet());
        Set<Integer> bad = IntStream.range(0, total).filter(poison).boxed().collect(Collectors.toSet());
        List<Integer> copiedIds = copied.stream().map(NumberedRecords::id).toList();
        assertThat(copiedIds).as("target: each good record exactly once").doesNotHaveDuplicates()
                .containsExactlyInAnyOrderElementsOf(good);
        assertThat(copied.stream().map(r -> Utf8.text(r.key())).toList()).as("target: each key once")
                .doesNotHaveDuplicates();
        assertThat(letters.stream().map(NumberedRecords::id).toList()).as("dead letters: each poison record once")
                .doesNotHaveDuplicates().containsExactlyInAnyOrderElementsOf(bad);
    }

    static int id(ConsumerRecord<byte[], byte[]> record) {
        return Integer.parseInt(header(record, "id"));
    }
}
