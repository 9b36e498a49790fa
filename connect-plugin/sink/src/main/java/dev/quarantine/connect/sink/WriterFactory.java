package dev.quarantine.connect.sink;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Function;

import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.errors.RetriableException;

import dev.quarantine.txn.SendErrors;
import dev.quarantine.txn.TxnSendProducer;

/**
 * Creates the {@link PartitionWriter} of a source partition: a transactional producer on the target cluster with
 * transactional id {@code <prefix>.<topic>-<partition>}, initialized (which fences any earlier producer of that id
 * and completes or aborts its last transaction).
 */
final class WriterFactory implements AutoCloseable {

    private final TransactionalSinkConfig config;
    private final WriteSetup setup;
    private final Function<Map<String, Object>, Producer<byte[], byte[]>> producerFactory;
    private volatile int producers = 1;

    WriterFactory(TransactionalSinkConfig config, WriteSetup setup) {
        this(config, setup, configs -> null);
    }

    /** For tests: {@code producers} builds the producer under each writer's TxnSendProducer from its configs. */
    WriterFactory(TransactionalSinkConfig config, WriteSetup setup,
                  Function<Map<String, Object>, Producer<byte[], byte[]>> producers) {
        this.config = config;
        this.setup = setup;
        this.producerFactory = producers;
    }

    /**
     * How many producers the task has (its partitions), once the partitions being opened are: new producers size
     * their batches and buffers for that many (see {@link ProducerMemory}).
     */
    void producers(int count) {
        producers = count;
    }

    SinkMetrics metrics() {
        return setup.metrics();
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
        ProducerMemory.size(configs, config.producersMemoryBytes(), producers);
        Producer<byte[], byte[]> given = producerFactory.apply(configs);
        TxnSendProducer<byte[], byte[]> producer = given == null
                ? new TxnSendProducer<>(configs, new ByteArraySerializer(), new ByteArraySerializer())
                : TxnSendProducer.wrap(given, configs, new ByteArraySerializer(), new ByteArraySerializer());
        boolean lastAborted;
        try {
            lastAborted = setup.hanging().lastTransactionAborted(transactionalId);
        } catch (RuntimeException e) {
            producer.close(Duration.ZERO);
            throw e;
        }
        try {
            producer.initTransactions();
        } catch (KafkaException e) {
            producer.close(Duration.ZERO);
            if (SendErrors.isTransient(e)) {
                throw new RetriableException("Could not initialize the transactional producer " + transactionalId
                        + " of " + source + " on the target cluster in time; trying again", e);
            }
            throw new ConnectException("Could not initialize the transactional producer " + transactionalId
                    + " of " + source + " on the target cluster" + (e instanceof AuthorizationException
                    ? ": the target producer's principal needs WRITE and DESCRIBE on transactional ids starting with "
                    + config.transactionalIdPrefix() + " (" + TransactionalSinkConfig.TRANSACTIONAL_ID_PREFIX_CONFIG
                    + ")" : ""), e);
        }
        return new PartitionWriter(source, new TargetProducer(producer, transactionalId), setup, lastAborted);
    }

    @Override
    public void close() {
        setup.converter().close();
    }
}
