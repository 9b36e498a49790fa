package dev.quarantine.txn;

import java.util.Collection;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

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
    /** The cache the gate created and closes with itself; null when it reads a shared one or topic checks are off. */
    private final TopicMetadataCache ownTopics;

    /** @param ownTopics the cache {@code checks} reads, closed with the gate; null when it is shared or not used */
    RecordGate(RecordSerializer<K, V> serializer, RecordChecks checks, TopicMetadataCache ownTopics) {
        this.serializer = serializer;
        this.checks = checks;
        this.ownTopics = ownTopics;
    }

    /**
     * The gate {@code config} describes. Topic metadata is read from {@code shared} when given (and left open on
     * close, for its owner to close), else from a cache of the gate's own over an admin client built from
     * {@code configs}.
     */
    static <K, V> RecordGate<K, V> create(TxnSendConfig config, Map<String, ?> configs,
                                          RecordSerializer<K, V> serializer, Optional<SharedTopicMetadata> shared) {
        if (!config.topicChecksEnabled()) {
            return new RecordGate<>(serializer, checks(config, null), null);
        }
        if (shared.isPresent()) {
            return new RecordGate<>(serializer, checks(config, shared.get().cache()), null);
        }
        TopicMetadataCache own = TopicMetadataCache.create(config, configs);
        return new RecordGate<>(serializer, checks(config, own), own);
    }

    private static RecordChecks checks(TxnSendConfig config, TopicMetadataCache topics) {
        return new RecordChecks(config.maxRequestSize(), config.bufferMemory(), topics);
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

    /**
     * Describes those of {@code topics} not yet known all at once; answers which exist ({@link RecordChecks#prefetch}).
     */
    Set<String> prefetch(Collection<String> topics, long deadlineNanos) {
        return checks.prefetch(topics, deadlineNanos);
    }

    /** See {@link TxnSendProducer#maxRecordBytes(String)}. */
    int maxRecordBytes(String topic) {
        TopicNames.validate(topic);
        return checks.maxRecordBytes(topic);
    }

    @Override
    public void close() {
        try {
            if (ownTopics != null) {
                ownTopics.close();
            }
        } finally {
            serializer.close();
        }
    }
}
