package dev.quarantine.connect.sink;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.connect.errors.ConnectException;

import dev.quarantine.txn.TxnSendProducer;

/**
 * Creates the {@link PartitionWriter} of a source partition: a transactional producer on the target cluster with
 * transactional id {@code <prefix>.<topic>-<partition>}, initialized (which fences any earlier producer of that id
 * and completes or aborts its last transaction).
 */
final class WriterFactory implements AutoCloseable {

    private final TransactionalSinkConfig config;
    private final RecordConverter converter;
    private final Optional<DeadLetters> deadLetters;
    private final SinkMetrics metrics;
    private final ProgressStore progress;

    WriterFactory(TransactionalSinkConfig config, RecordConverter converter, Optional<DeadLetters> deadLetters,
                  SinkMetrics metrics, ProgressStore progress) {
        this.config = config;
        this.converter = converter;
        this.deadLetters = deadLetters;
        this.metrics = metrics;
        this.progress = progress;
    }

    /** The transactional id, and progress group, of a source partition. */
    static String transactionalId(String prefix, TopicPartition source) {
        return prefix + "." + source.topic() + "-" + source.partition();
    }

    PartitionWriter create(TopicPartition source) {
        String transactionalId = transactionalId(config.transactionalIdPrefix(), source);
        Map<String, Object> configs = new HashMap<>(config.producerConfigs());
        configs.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalId);
        configs.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        configs.putIfAbsent(ProducerConfig.CLIENT_ID_CONFIG, transactionalId);
        // a partition's producer writes mostly one target partition and flushes at every commit: Kafka's 16 KiB
        // default would mean ~15 records per produce request; target.producer.batch.size overrides it
        configs.putIfAbsent(ProducerConfig.BATCH_SIZE_CONFIG, 256 * 1024);
        TxnSendProducer<byte[], byte[]> producer =
                new TxnSendProducer<>(configs, new ByteArraySerializer(), new ByteArraySerializer());
        try {
            producer.initTransactions();
        } catch (KafkaException e) {
            producer.close(java.time.Duration.ZERO);
            throw new ConnectException("Could not initialize the transactional producer " + transactionalId
                    + " of " + source + " on the target cluster", e);
        }
        return new PartitionWriter(source, transactionalId, producer, progress.progressPartition(), converter,
                deadLetters, metrics, config.transactionRetries());
    }

    @Override
    public void close() {
        converter.close();
    }
}
