package dev.quarantine.replay;

import static dev.quarantine.sandbox.Utf8.bytes;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.consumer.AcknowledgeType;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaShareConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.errors.LogAndContinueExceptionHandler;
import org.apache.kafka.streams.kstream.Consumed;
import org.springframework.kafka.core.DefaultKafkaProducerFactory;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.kafka.listener.DeadLetterPublishingRecoverer;
import org.springframework.kafka.listener.ListenerExecutionFailedException;

import dev.quarantine.sandbox.Await;
import dev.quarantine.sandbox.LocalKafka;
import dev.quarantine.sandbox.TopicReader;

/**
 * The real writers of other tools' dead letters, as their users run them: Spring Kafka's
 * {@link DeadLetterPublishingRecoverer}, the 4.4 broker for a share group whose consumer rejects records, and a stock
 * Kafka Streams app with its own dead-letter queue. One place for the tests of every module that needs them (the
 * replay's, the monitor's, the archive's browser test: this module's test-jar).
 */
public final class RealDeadLetterWriters {

    private RealDeadLetterWriters() {
    }

    /**
     * The records a Spring listener fails on, for {@link #spring}: {@code count} orders {@code order-<i>} with a JSON
     * value and a {@code trace-id} header, spread over partitions 0 to 2 of {@code topic}, each stamped two days old
     * plus {@code i} ms (a replay must keep that time); returns them as read back committed.
     */
    public static List<ConsumerRecord<byte[], byte[]>> oldOrders(LocalKafka kafka, String topic, int count,
                                                                Duration deadline) {
        long twoDaysAgo = System.currentTimeMillis() - Duration.ofDays(2).toMillis();
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(kafka.clientProps(),
                new ByteArraySerializer(), new ByteArraySerializer())) {
            for (int i = 0; i < count; i++) {
                ProducerRecord<byte[], byte[]> record = new ProducerRecord<>(topic, i % 3, twoDaysAgo + i,
                        bytes("order-" + i), bytes("{\"order\":" + i + "}"));
                record.headers().add("trace-id", bytes("t" + i));
                producer.send(record);
            }
        }
        return TopicReader.readCommitted(kafka, topic, deadline);
    }

    /**
     * Dead-letters each of {@code failed} with Spring Kafka's own recoverer, as a listener container calls it: a
     * {@link ListenerExecutionFailedException} naming {@code group}, caused by {@code cause}. The recoverer's default
     * destination is {@code <topic>-dlt}, the same partition.
     */
    public static void spring(LocalKafka kafka, List<ConsumerRecord<byte[], byte[]>> failed, String group,
                       RuntimeException cause) {
        Map<String, Object> props = new HashMap<>();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        props.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        props.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        DefaultKafkaProducerFactory<Object, Object> factory = new DefaultKafkaProducerFactory<>(props);
        try {
            KafkaTemplate<Object, Object> template = new KafkaTemplate<>(factory);
            DeadLetterPublishingRecoverer recoverer = new DeadLetterPublishingRecoverer(template);
            recoverer.setFailIfSendResultIsError(true);
            for (ConsumerRecord<byte[], byte[]> record : failed) {
                recoverer.accept(record, new ListenerExecutionFailedException("Listener failed", group, cause));
            }
            template.flush();
        } finally {
            factory.destroy();
        }
    }

    /**
     * Names {@code dlq} the dead-letter topic of share group {@code group} (KIP-1191), with the record copied, reading
     * from the earliest offset. {@code dlq} must exist with {@code errors.deadletterqueue.group.enable=true}.
     */
    public static void shareGroupDlq(LocalKafka kafka, String group, String dlq) throws Exception {
        ConfigResource resource = new ConfigResource(ConfigResource.Type.GROUP, group);
        List<AlterConfigOp> ops = List.of(
                new AlterConfigOp(new ConfigEntry("errors.deadletterqueue.topic.name", dlq), AlterConfigOp.OpType.SET),
                new AlterConfigOp(new ConfigEntry("errors.deadletterqueue.copy.record.enable", "true"),
                        AlterConfigOp.OpType.SET),
                new AlterConfigOp(new ConfigEntry("share.auto.offset.reset", "earliest"), AlterConfigOp.OpType.SET));
        try (Admin admin = kafka.admin()) {
            admin.incrementalAlterConfigs(Map.of(resource, ops)).all().get(30, TimeUnit.SECONDS);
        }
    }

    /**
     * A {@link KafkaShareConsumer} of {@code group} with explicit acknowledgement rejects ({@link
     * AcknowledgeType#REJECT}) the records of {@code topic} until it has rejected {@code count}; the broker then
     * dead-letters them. Returns the keys rejected.
     */
    public static List<String> rejectAll(LocalKafka kafka, String group, String topic, int count, Duration deadline) {
        Properties props = kafka.clientProps();
        props.put(ConsumerConfig.GROUP_ID_CONFIG, group);
        props.put("share.acknowledgement.mode", "explicit");
        List<String> rejected = new ArrayList<>();
        try (KafkaShareConsumer<byte[], byte[]> consumer = new KafkaShareConsumer<>(props,
                new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            consumer.subscribe(List.of(topic));
            Await.until(() -> "the share consumer rejecting " + count + " records (rejected " + rejected.size() + ")",
                    deadline, () -> {
                        for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(500))) {
                            consumer.acknowledge(record, AcknowledgeType.REJECT);
                            rejected.add(new String(record.key(), StandardCharsets.UTF_8));
                        }
                        consumer.commitSync();
                        return rejected.size() >= count;
                    });
        }
        return rejected;
    }

    /**
     * Runs a stock Kafka Streams 4.4 app ({@code applicationId}) that reads {@code input} as string keys and int
     * values, with {@code LogAndContinueExceptionHandler} and Kafka's own dead-letter queue
     * ({@code errors.dead.letter.queue.topic.name = dlq}), until {@code letters} dead letters are in {@code dlq}.
     */
    public static void streamsOwnDlq(LocalKafka kafka, String applicationId, String input, String dlq, Path stateDir,
                              int letters, Duration deadline) {
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream(input, Consumed.with(Serdes.String(), Serdes.Integer())).foreach((key, value) -> { });
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, applicationId);
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        props.put(StreamsConfig.DESERIALIZATION_EXCEPTION_HANDLER_CLASS_CONFIG,
                LogAndContinueExceptionHandler.class.getName());
        props.put(StreamsConfig.ERRORS_DEAD_LETTER_QUEUE_TOPIC_NAME_CONFIG, dlq);
        props.put(StreamsConfig.consumerPrefix(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG), "earliest");
        KafkaStreams app = new KafkaStreams(builder.build(), props);
        try {
            app.start();
            Await.until(() -> letters + " dead letters from Kafka Streams in " + dlq, deadline,
                    () -> TopicReader.readCommitted(kafka, dlq, Duration.ofSeconds(10)).size() >= letters);
        } finally {
            app.close(Duration.ofSeconds(30));
        }
    }
}
