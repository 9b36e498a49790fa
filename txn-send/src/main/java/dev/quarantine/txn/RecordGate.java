package dev.quarantine.txn;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * The gate of {@link TxnSendOption#IGNORE_SEND_ERRORS}: decides, before a record enters a batch, whether sending it
 * would poison the transaction. It serializes the record and runs {@link RecordChecks} on the bytes, and classifies
 * what went wrong with {@link SendErrors}, once:
 *
 * <table>
 * <caption>What the gate decides</caption>
 * <tr><th>serialization and checks</th><th>category</th><th>decision</th></tr>
 * <tr><td>pass</td><td></td><td>admit: send it (the bytes are kept for the producer's serializers)</td></tr>
 * <tr><td>fail with an error of the record (too large, bad topic or partition, key missing on a compacted topic,
 *     timestamp out of range, serialization)</td><td>RECORD</td><td>leave it out with that error</td></tr>
 * <tr><td>fail because the check itself could not finish (the topic could not be described in time)</td>
 *     <td>RETRIABLE</td><td>leave it out with that error</td></tr>
 * <tr><td>fail with anything else (authorization, interruption, misuse)</td><td>ABORTABLE, FATAL</td>
 *     <td>throw it</td></tr>
 * </table>
 *
 * <p>The usual record (clearly within every limit, to a topic already described) costs a few comparisons and no
 * allocation: the topic name is scanned once per topic, sizes are bounded without encoding anything, and the topic's
 * metadata comes from {@link TopicMetadataCache}.
 */
final class RecordGate<K, V> implements AutoCloseable {

    private final RecordSerializer<K, V> serializer;
    private final RecordChecks checks;
    private final TopicMetadataCache topics;

    /** @param topics the cache {@code checks} reads, closed with the gate; null when topic checks are off */
    RecordGate(RecordSerializer<K, V> serializer, RecordChecks checks, TopicMetadataCache topics) {
        this.serializer = serializer;
        this.checks = checks;
        this.topics = topics;
    }

    /** The gate {@code config} describes; topic metadata is read with an admin client built from {@code configs}. */
    static <K, V> RecordGate<K, V> create(TxnSendConfig config, Map<String, ?> configs,
                                          RecordSerializer<K, V> serializer) {
        TopicMetadataCache topics = config.topicChecksEnabled()
                ? new TopicMetadataCache(new AdminTopicDescriber(() -> Admin.create(adminConfigs(configs, config))),
                        config.topicMetadataMaxAge(), config.maxBlock(), config.missingTopicWait())
                : null;
        return new RecordGate<>(serializer, new RecordChecks(config.maxRequestSize(), config.bufferMemory(), topics),
                topics);
    }

    /**
     * Empty when {@code record} may be sent: send it on this thread now, then call {@link #sent()}. Otherwise the
     * error to leave it out with.
     *
     * @throws RuntimeException an error that must not be ignored (see the class documentation)
     */
    Optional<RuntimeException> admit(ProducerRecord<K, V> record) {
        try {
            RecordSerializer.Serialized bytes = serializer.serialize(record);
            checks.check(record.topic(), record.partition(), record.timestamp(), bytes.key(), bytes.value(),
                    record.headers());
            return Optional.empty();
        } catch (RuntimeException e) {
            serializer.forget();
            SendErrorCategory category = SendErrors.classify(e);
            if (category == SendErrorCategory.RECORD || category == SendErrorCategory.RETRIABLE) {
                return Optional.of(e);
            }
            throw e;
        }
    }

    /** After the send of an admitted record (whether it returned or threw): drops the bytes kept for it. */
    void sent() {
        serializer.forget();
    }

    /** See {@link TxnSendProducer#maxRecordBytes(String)}. */
    int maxRecordBytes(String topic) {
        TopicNames.validate(topic);
        return checks.maxRecordBytes(topic);
    }

    @Override
    public void close() {
        try {
            if (topics != null) {
                topics.close();
            }
        } finally {
            serializer.close();
        }
    }

    private static Map<String, Object> adminConfigs(Map<String, ?> producerConfigs, TxnSendConfig config) {
        Map<String, Object> admin = new HashMap<>();
        producerConfigs.forEach((key, value) -> {
            if (AdminClientConfig.configNames().contains(key)) {
                admin.put(key, value);
            }
        });
        admin.put(AdminClientConfig.CLIENT_ID_CONFIG, config.clientId() + "-txn-send-admin");
        return admin;
    }
}
