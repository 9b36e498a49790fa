package dev.quarantine.txn;

import static dev.quarantine.sandbox.Utf8.bytes;
import static dev.quarantine.txn.PoisonCase.StockFailure.SEND_THROWS;
import static dev.quarantine.txn.PoisonCase.StockFailure.TRANSACTION_FAILS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.InvalidRecordException;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.InvalidTimestampException;
import org.apache.kafka.common.errors.InvalidTopicException;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import dev.quarantine.sandbox.LocalKafka;
import dev.quarantine.sandbox.LocalKafkaExtension;
import dev.quarantine.sandbox.TopicReader;

@ExtendWith(LocalKafkaExtension.class)
class TxnSendProducerIT {

    private static final int GOOD = 99;
    private static final int POISON_AT = 50;
    private static final AtomicInteger TOPICS = new AtomicInteger();

    /** Short timeouts so the stock failures (which wait for them) keep the suite fast. */
    private static final Map<String, Object> STOCK_TIMEOUTS = Map.of(
            ProducerConfig.MAX_BLOCK_MS_CONFIG, 3000,
            ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 2000,
            ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 4000);

    static Stream<PoisonCase> poisons() {
        return Stream.of(
                new PoisonCase("larger than max.request.size", Map.of(), 1,
                        Map.of(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, 20_000),
                        topic -> new ProducerRecord<>(topic, "k", PoisonCase.big(30_000)),
                        RecordTooLargeException.class, TRANSACTION_FAILS),
                new PoisonCase("larger than buffer.memory", Map.of(), 1,
                        Map.of(ProducerConfig.BUFFER_MEMORY_CONFIG, 100_000, ProducerConfig.BATCH_SIZE_CONFIG, 16384),
                        topic -> new ProducerRecord<>(topic, "k", PoisonCase.big(200_000)),
                        RecordTooLargeException.class, TRANSACTION_FAILS),
                new PoisonCase("unserializable value", Map.of(), 1, Map.of(),
                        topic -> new ProducerRecord<>(topic, "k", PoisonAwareSerializer.UNSERIALIZABLE),
                        SerializationException.class, SEND_THROWS),
                new PoisonCase("value of the wrong type for its serializer", Map.of(), 1, Map.of(),
                        topic -> new ProducerRecord<>(topic, "k", 42),
                        SerializationException.class, SEND_THROWS),
                new PoisonCase("partition that does not exist", Map.of(), 3, Map.of(),
                        topic -> new ProducerRecord<>(topic, 7, "k", "v"),
                        UnknownTopicOrPartitionException.class, TRANSACTION_FAILS),
                new PoisonCase("invalid topic name", Map.of(), 1, Map.of(),
                        topic -> new ProducerRecord<>("not a valid topic!", "k", "v"),
                        InvalidTopicException.class, TRANSACTION_FAILS),
                new PoisonCase("topic that does not exist, auto-creation off", Map.of(), 1, Map.of(),
                        topic -> new ProducerRecord<>(topic + "-missing", "k", "v"),
                        UnknownTopicOrPartitionException.class, TRANSACTION_FAILS),
                new PoisonCase("larger than the topic's max.message.bytes", Map.of("max.message.bytes", "10000"), 1,
                        Map.of(), topic -> new ProducerRecord<>(topic, "k", PoisonCase.big(20_000)),
                        RecordTooLargeException.class, TRANSACTION_FAILS),
                new PoisonCase("null key on a compacted topic", Map.of("cleanup.policy", "compact"), 1, Map.of(),
                        topic -> new ProducerRecord<>(topic, null, "v"),
                        InvalidRecordException.class, TRANSACTION_FAILS),
                new PoisonCase("timestamp older than message.timestamp.before.max.ms",
                        Map.of("message.timestamp.before.max.ms", "3600000"), 1, Map.of(),
                        topic -> new ProducerRecord<>(topic, null, System.currentTimeMillis() - 7_200_000L, "k", "v"),
                        InvalidTimestampException.class, TRANSACTION_FAILS),
                new PoisonCase("timestamp further ahead than message.timestamp.after.max.ms",
                        Map.of("message.timestamp.after.max.ms", "3600000"), 1, Map.of(),
                        topic -> new ProducerRecord<>(topic, null, System.currentTimeMillis() + 7_200_000L, "k", "v"),
                        InvalidTimestampException.class, TRANSACTION_FAILS));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("poisons")
    void commitsTheOtherRecordsAndReportsThePoisonWithIgnoreSendErrors(PoisonCase poison, LocalKafka kafka)
            throws Exception {
        String topic = newTopic(poison, kafka);
        try (TxnSendProducer<String, Object> producer =
                     new TxnSendProducer<>(poison.producerConfigs(kafka, topic + "-txn"))) {
            producer.initTransactions();
            producer.beginTransaction();
            CompletableFuture<Exception> poisonCallback = new CompletableFuture<>();
            Future<RecordMetadata> poisonFuture = null;
            for (int i = 0; i < GOOD; i++) {
                if (i == POISON_AT) {
                    poisonFuture = producer.send(poison.poison().apply(topic),
                            (metadata, error) -> poisonCallback.complete(error), TxnSendOption.IGNORE_SEND_ERRORS);
                }
                producer.send(good(topic, i), null, TxnSendOption.IGNORE_SEND_ERRORS);
            }
            producer.commitTransaction();

            assertThat(poisonCallback.get()).isInstanceOf(poison.expected());
            Future<RecordMetadata> failed = poisonFuture;
            assertThatThrownBy(failed::get).isInstanceOf(ExecutionException.class).cause()
                    .isInstanceOf(poison.expected());

            producer.beginTransaction();
            producer.send(new ProducerRecord<>(topic, 0, "k", "after"), null, TxnSendOption.IGNORE_SEND_ERRORS);
            producer.commitTransaction();
        }
        List<String> expected = new ArrayList<>(goodValues());
        expected.add("after");
        assertThat(committedValues(kafka, topic)).containsExactlyElementsOf(expected);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("poisons")
    void failsAsStockKafkaDoesWithNone(PoisonCase poison, LocalKafka kafka) {
        String topic = newTopic(poison, kafka);
        Map<String, Object> configs = poison.producerConfigs(kafka, topic + "-txn");
        STOCK_TIMEOUTS.forEach(configs::putIfAbsent);
        try (TxnSendProducer<String, Object> producer = new TxnSendProducer<>(configs)) {
            producer.initTransactions();
            producer.beginTransaction();
            List<Exception> sendErrors = new ArrayList<>();
            for (int i = 0; i < GOOD; i++) {
                if (i == POISON_AT) {
                    sendPoisonAsStock(poison, producer, topic);
                }
                try {
                    producer.send(good(topic, i), null, TxnSendOption.NONE);
                } catch (KafkaException e) {
                    sendErrors.add(e);
                }
            }
            if (poison.stock() == SEND_THROWS) {
                assertThat(sendErrors).isEmpty();
                producer.commitTransaction();
            } else {
                assertThatThrownBy(producer::commitTransaction).isInstanceOf(KafkaException.class);
                producer.abortTransaction();
            }
        }
        List<String> committed = committedValues(kafka, topic);
        if (poison.stock() == SEND_THROWS) {
            assertThat(committed).containsExactlyElementsOf(goodValues());
        } else {
            assertThat(committed).as("stock Kafka loses the whole transaction").isEmpty();
        }
    }

    @Test
    void deadLetterOfARecordLargerThanTheDeadLetterTopicAcceptsIsTruncatedAndCommitted(LocalKafka kafka)
            throws Exception {
        String topic = topicWithDeadLetterTopic(kafka, 6000);
        String dlq = topic + "-dlq";
        DeadLetterRecordBuilder deadLetters = connectDeadLetters(dlq);
        byte[] poison = new byte[50_000];
        try (TxnSendProducer<byte[], byte[]> producer = bytesProducer(kafka, topic,
                Map.of(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, 20_000))) {
            assertThat(producer.maxRecordBytes(dlq)).as("the DLQ topic's max.message.bytes").isEqualTo(6000);
            assertThat(producer.maxRecordBytes(topic)).as("the producer's max.request.size").isEqualTo(20_000);
            producer.initTransactions();
            producer.beginTransaction();
            CompletableFuture<Exception> failed = new CompletableFuture<>();
            producer.send(new ProducerRecord<>(topic, 0, bytes("k"), poison), (m, e) -> failed.complete(e),
                    TxnSendOption.IGNORE_SEND_ERRORS);
            producer.send(new ProducerRecord<>(topic, 0, bytes("k"), bytes("good")), null,
                    TxnSendOption.IGNORE_SEND_ERRORS);
            producer.send(deadLetters.build(DeadLetter.of(bytes("k"), poison, null, failed.get())
                    .source(topic, 0, 0L), producer.maxRecordBytes(dlq)), null, TxnSendOption.NONE);
            producer.commitTransaction();
        }
        List<ConsumerRecord<byte[], byte[]>> parked = TopicReader.readCommitted(kafka, dlq, Duration.ofSeconds(30));
        assertThat(parked).hasSize(1);
        assertThat(new String(parked.get(0).headers().lastHeader(DeadLetterHeaders.PAYLOAD_TRUNCATED).value(),
                StandardCharsets.UTF_8)).isEqualTo("value");
        assertThat(committedValues(kafka, topic)).containsExactly("good");
    }

    @Test
    void deadLetterWhoseContextHeadersAloneExceedTheDeadLetterTopicIsWrittenWithThemCutAndSaysSo(LocalKafka kafka)
            throws Exception {
        String topic = topicWithDeadLetterTopic(kafka, 2048);
        String dlq = topic + "-dlq";
        DeadLetterRecordBuilder deadLetters = connectDeadLetters(dlq);
        String hugeName = "connector-".repeat(500); // 5,000 bytes: more than the whole dead-letter topic accepts
        try (TxnSendProducer<byte[], byte[]> producer = bytesProducer(kafka, topic, Map.of())) {
            producer.initTransactions();
            producer.beginTransaction();
            producer.send(new ProducerRecord<>(topic, 0, bytes("k"), bytes("good")), null,
                    TxnSendOption.IGNORE_SEND_ERRORS);
            producer.send(deadLetters.build(DeadLetter.of(bytes("k"), bytes("poison"), null,
                    new RecordTooLargeException("too large")).source(topic, 0, 7L).target(topic, 0)
                    .context(DeadLetterHeaders.CONNECT_CONNECTOR_NAME, hugeName)
                    .context(DeadLetterHeaders.CONNECT_TASK_ID, "3"), producer.maxRecordBytes(dlq)), null,
                    TxnSendOption.NONE).get();
            producer.commitTransaction();
        }
        List<ConsumerRecord<byte[], byte[]>> parked = TopicReader.readCommitted(kafka, dlq, Duration.ofSeconds(30));
        assertThat(parked).hasSize(1);
        ConsumerRecord<byte[], byte[]> letter = parked.get(0);
        assertThat(header(letter, DeadLetterHeaders.PAYLOAD_TRUNCATED)).contains("context");
        assertThat(header(letter, DeadLetterHeaders.CONNECT_CONNECTOR_NAME)).as("cut, not dropped")
                .startsWith("connector-").hasSizeLessThan(hugeName.length());
        assertThat(header(letter, DeadLetterHeaders.CONNECT_OFFSET)).as("where it came from").isEqualTo("7");
        assertThat(header(letter, DeadLetterHeaders.CONNECT_EXCEPTION))
                .isEqualTo(RecordTooLargeException.class.getName());
        assertThat(committedValues(kafka, topic)).containsExactly("good");
    }

    @Test
    void deadLettersKeepTheTimestampOfTheRecordsThatFailed(LocalKafka kafka) throws Exception {
        String topic = topicWithDeadLetterTopic(kafka, 1_000_000);
        String dlq = topic + "-dlq";
        DeadLetterRecordBuilder deadLetters = connectDeadLetters(dlq);
        long twoDaysAgo = System.currentTimeMillis() - Duration.ofDays(2).toMillis();
        try (TxnSendProducer<byte[], byte[]> producer = bytesProducer(kafka, topic,
                Map.of(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, 20_000))) {
            producer.initTransactions();
            producer.beginTransaction();
            List<CompletableFuture<Exception>> failures = new ArrayList<>();
            List<ProducerRecord<byte[], byte[]>> poison = new ArrayList<>();
            for (int i = 0; i < 100; i++) {
                CompletableFuture<Exception> failed = new CompletableFuture<>();
                ProducerRecord<byte[], byte[]> record = new ProducerRecord<>(topic, 0, twoDaysAgo + i, bytes("k" + i),
                        new byte[30_000]);
                producer.send(record, (m, e) -> failed.complete(e), TxnSendOption.IGNORE_SEND_ERRORS);
                failures.add(failed);
                poison.add(record);
            }
            for (int i = 0; i < 100; i++) {
                ProducerRecord<byte[], byte[]> record = poison.get(i);
                producer.send(deadLetters.build(DeadLetter.of(record.key(), record.value(), null,
                        failures.get(i).get()).source(topic, 0, i).timestamp(record.timestamp()),
                        producer.maxRecordBytes(dlq)), null, TxnSendOption.NONE);
            }
            producer.commitTransaction();
        }
        List<ConsumerRecord<byte[], byte[]>> letters = TopicReader.readCommitted(kafka, dlq, Duration.ofSeconds(30));
        assertThat(letters).hasSize(100).allSatisfy(letter -> {
            long offset = Long.parseLong(header(letter, DeadLetterHeaders.CONNECT_OFFSET));
            assertThat(letter.timestamp()).as("dead letter of offset %d", offset).isEqualTo(twoDaysAgo + offset);
            assertThat(header(letter, DeadLetterHeaders.CONNECT_EXCEPTION))
                    .isEqualTo(RecordTooLargeException.class.getName());
        });
    }

    /** A new topic, and its dead-letter topic ({@code <topic>-dlq}) accepting records of {@code dlqMaxBytes}. */
    private static String topicWithDeadLetterTopic(LocalKafka kafka, int dlqMaxBytes) {
        String topic = "txn-send-" + TOPICS.incrementAndGet();
        kafka.createTopic(topic, 1, Map.of());
        kafka.createTopic(topic + "-dlq", 1, Map.of("max.message.bytes", String.valueOf(dlqMaxBytes)));
        return topic;
    }

    /** A producer of bytes with the transactional id {@code <topic>-txn}, and {@code configs}. */
    private static TxnSendProducer<byte[], byte[]> bytesProducer(LocalKafka kafka, String topic,
                                                                 Map<String, Object> configs) {
        Map<String, Object> all = new HashMap<>(configs);
        all.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        all.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, topic + "-txn");
        return new TxnSendProducer<>(all, new ByteArraySerializer(), new ByteArraySerializer());
    }

    /** Dead letters in Connect's header names for {@code dlq}, at most a megabyte as configured. */
    private static DeadLetterRecordBuilder connectDeadLetters(String dlq) {
        return new DeadLetterRecordBuilder(dlq, DeadLetterRecordBuilder.HeaderStyle.CONNECT, 1_000_000);
    }

    private static String header(ConsumerRecord<byte[], byte[]> record, String name) {
        return new String(record.headers().lastHeader(name).value(), StandardCharsets.UTF_8);
    }

    private static void sendPoisonAsStock(PoisonCase poison, TxnSendProducer<String, Object> producer, String topic) {
        ProducerRecord<String, Object> record = poison.poison().apply(topic);
        if (poison.stock() == SEND_THROWS) {
            assertThatThrownBy(() -> producer.send(record, null, TxnSendOption.NONE))
                    .isInstanceOf(poison.expected());
        } else {
            producer.send(record, null, TxnSendOption.NONE);
        }
    }

    private static String newTopic(PoisonCase poison, LocalKafka kafka) {
        String topic = "txn-send-" + TOPICS.incrementAndGet();
        poison.createTopic(kafka, topic);
        return topic;
    }

    static ProducerRecord<String, Object> good(String topic, int i) {
        return new ProducerRecord<>(topic, 0, "key-" + i, "good-" + i);
    }

    static List<String> goodValues() {
        List<String> values = new ArrayList<>();
        for (int i = 0; i < GOOD; i++) {
            values.add("good-" + i);
        }
        return values;
    }

    static List<String> committedValues(LocalKafka kafka, String topic) {
        return TopicReader.readCommitted(kafka, topic, Duration.ofSeconds(30)).stream()
                .map(r -> new String(r.value(), StandardCharsets.UTF_8)).toList();
    }
}
