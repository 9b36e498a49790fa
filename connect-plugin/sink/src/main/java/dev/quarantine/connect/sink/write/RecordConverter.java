package dev.quarantine.connect.sink.write;

import java.util.Map;

import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.connect.errors.RetriableException;
import org.apache.kafka.connect.header.Header;
import org.apache.kafka.connect.sink.SinkRecord;
import org.apache.kafka.connect.storage.Converter;
import org.apache.kafka.connect.storage.HeaderConverter;

import dev.quarantine.connect.sink.cluster.TargetTopics;
import dev.quarantine.connect.sink.config.TopicFormat;
import dev.quarantine.txn.SendErrors;

/**
 * Turns a {@link SinkRecord} back into the bytes of a target record: topic from {@code target.topic.format}, the
 * same partition (or, where the target topic does not have it, the one {@link TargetTopics} maps it to), key, value
 * and headers through the target converters (ByteArrayConverter passes bytes through unchanged), the same timestamp.
 * Tombstones and null keys stay null.
 */
public final class RecordConverter implements AutoCloseable {

    private final TopicFormat topics;
    private final TargetTopics targetTopics;
    private final Converter keyConverter;
    private final Converter valueConverter;
    private final HeaderConverter headerConverter;

    public RecordConverter(TopicFormat topics, TargetTopics targetTopics, Converter keyConverter,
            Converter valueConverter, HeaderConverter headerConverter) {
        this.topics = topics;
        this.targetTopics = targetTopics;
        this.keyConverter = keyConverter;
        this.valueConverter = valueConverter;
        this.headerConverter = headerConverter;
    }

    String targetTopic(SinkRecord record) {
        return topics.targetTopic(record.topic());
    }

    /** The target topic of the records of source topic {@code topic} that no transform renamed. */
    String targetTopic(String topic) {
        return topics.targetTopic(topic);
    }

    /**
     * Synchronized: partitions are written by parallel threads, and converters need not be thread-safe.
     *
     * @throws SerializationException when a converter cannot turn the record into bytes (a record problem: it is
     *                                dead-lettered with the converter's exception as cause)
     * @throws RetriableException     when a converter failed transiently (Connect's RetriableException, or a
     *                                RETRIABLE cause such as a schema registry timeout, see
     *                                {@link SendErrors#isTransient}): the batch is written again later, the record is
     *                                not poison
     */
    synchronized ProducerRecord<byte[], byte[]> convert(SinkRecord record, Map<String, Integer> mapped) {
        String topic = targetTopic(record);
        try {
            RecordHeaders headers = new RecordHeaders();
            for (Header header : record.headers()) {
                headers.add(header.key(), headerConverter.fromConnectHeader(topic, header.key(), header.schema(),
                        header.value()));
            }
            byte[] key = keyConverter.fromConnectData(topic, headers, record.keySchema(), record.key());
            byte[] value = valueConverter.fromConnectData(topic, headers, record.valueSchema(), record.value());
            // target.partition.mapping, by the partition counts of the record's source partition
            Integer partition = targetTopics.partition(topic, record.kafkaPartition(), key, mapped);
            return new ProducerRecord<>(topic, partition, record.timestamp(), key, value, headers);
        } catch (RetriableException e) {
            throw transientFailure(record, e);
        } catch (RuntimeException e) {
            if (SendErrors.isTransient(e)) {
                throw transientFailure(record, e);
            }
            throw new SerializationException("The target converters could not turn the record into bytes for "
                    + topic + ": " + e.getClass().getName(), e);
        }
    }

    private static RetriableException transientFailure(SinkRecord record, RuntimeException e) {
        return new RetriableException("The target converters failed transiently on " + Coordinates.of(record) + " ("
                + e.getClass().getName() + "); the batch is written again", e);
    }

    @Override
    public void close() {
        closeQuietly(keyConverter);
        closeQuietly(valueConverter);
        closeQuietly(headerConverter);
    }

    private static void closeQuietly(Object converter) {
        if (converter instanceof AutoCloseable closeable) {
            try {
                closeable.close();
            } catch (Exception e) {
                // converters hold no resources that outlive the task
            }
        }
    }
}
