package dev.quarantine.connect.sink.write;

import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.errors.RetriableException;

import dev.quarantine.connect.sink.cluster.HangingTransactionCheck;
import dev.quarantine.connect.sink.config.ConfigRules;
import dev.quarantine.connect.sink.config.TransactionalSinkConfig;
import dev.quarantine.connect.sink.metrics.SinkMetrics;
import dev.quarantine.txn.SendErrors;
import dev.quarantine.txn.SharedTopicMetadata;
import dev.quarantine.txn.TxnSendProducer;

/**
 * Creates the {@link PartitionWriter} of a source partition: a transactional producer on the target cluster with
 * transactional id {@code <prefix>:<topic>-<partition>}, initialized (which fences any earlier producer of that id
 * and completes or aborts its last transaction).
 *
 * <p>Every producer of the task reads one {@link SharedTopicMetadata} for its up-front topic checks (one admin client
 * and one description of each target and dead-letter topic per task, not per partition), closed with the factory,
 * after the producers.
 */
public final class WriterFactory implements AutoCloseable {

    private final TransactionalSinkConfig config;
    private final WriteSetup setup;
    private final Function<Map<String, Object>, Producer<byte[], byte[]>> producerFactory;
    private final SharedTopicMetadata topics;
    private volatile int producers = 1;

    public WriterFactory(TransactionalSinkConfig config, WriteSetup setup) {
        this(config, setup, configs -> null);
    }

    /** For tests: {@code producers} builds the producer under each writer's TxnSendProducer from its configs. */
    public WriterFactory(TransactionalSinkConfig config, WriteSetup setup,
                  Function<Map<String, Object>, Producer<byte[], byte[]>> producers) {
        this.config = config;
        this.setup = setup;
        this.producerFactory = producers;
        this.topics = new SharedTopicMetadata(topicCheckConfigs(config));
    }

    /**
     * The target producer settings (connection, {@code max.block.ms}, {@code txn.send.*}) under the task's own client
     * id, for the admin client of the task's topic checks: {@code <connector>-<task>-txn-send-admin}.
     */
    private static Map<String, Object> topicCheckConfigs(TransactionalSinkConfig config) {
        Map<String, Object> configs = new HashMap<>(config.producerConfigs());
        configs.putIfAbsent(ProducerConfig.CLIENT_ID_CONFIG, config.connectorName() + "-" + config.taskId());
        return configs;
    }

    /**
     * How many producers the task has (its partitions), once the partitions being opened are: new producers size
     * their batches and buffers for that many (see {@link ProducerMemory}).
     */
    public void producers(int count) {
        producers = count;
    }

    /** How long one put may go on starting transaction attempts: {@link ConfigRules#writeBound}. */
    public Duration writeBound() {
        return ConfigRules.writeBound(config);
    }

    public SinkMetrics metrics() {
        return setup.metrics();
    }

    /**
     * The transactional id, and progress key, of a source partition: {@code <prefix>:<topic>-<partition>}. A topic
     * name cannot hold a colon, so the last colon ends the prefix and no two (prefix, partition) pairs share an id;
     * with a dot there ({@code x} + {@code y.z-1} and {@code x.y} + {@code z-1} were both {@code x.y.z-1}), two
     * connectors fenced each other and read each other's progress.
     */
    public static String transactionalId(String prefix, TopicPartition source) {
        return prefix + ":" + source.topic() + "-" + source.partition();
    }

    /**
     * The source partition whose transactional id (and progress key) {@code transactionalId} is under
     * {@code prefix}, the reverse of {@link #transactionalId}; empty for any other key (another prefix, or a key no
     * partition has, such as a completion tombstone's).
     */
    public static Optional<TopicPartition> sourceOf(String prefix, String transactionalId) {
        String start = prefix + ":";
        if (!transactionalId.startsWith(start)) {
            return Optional.empty();
        }
        String rest = transactionalId.substring(start.length());
        int dash = rest.lastIndexOf('-');
        if (dash <= 0 || rest.indexOf(':') >= 0) {
            return Optional.empty();
        }
        try {
            int partition = Integer.parseInt(rest.substring(dash + 1));
            return partition < 0 ? Optional.empty()
                    : Optional.of(new TopicPartition(rest.substring(0, dash), partition));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    /**
     * Creates the writers of {@code sources}, as {@link #create(TopicPartition)} does one, but with their transactional
     * ids' last transactions described together first, before any of their producers' initTransactions (see
     * {@link HangingTransactionCheck#lastTransactionsAborted}): a few calls to the target cluster instead of one per
     * partition. Returns the work that creates one of them; it throws for a partition whose id's description failed
     * (that failure, naming the id), not for the others.
     */
    public Function<TopicPartition, PartitionWriter> opening(Collection<TopicPartition> sources) {
        HangingTransactionCheck.LastTransactions last = setup.hanging().describeLastTransactions(
                sources.stream().map(source -> transactionalId(config.transactionalIdPrefix(), source)).toList());
        return source -> {
            String id = transactionalId(config.transactionalIdPrefix(), source);
            RuntimeException failed = last.failed().get(id);
            if (failed != null) {
                throw failed; // this partition's alone: the others open
            }
            return create(source, last.aborted().contains(id));
        };
    }

    /**
     * Before writers opened together restore from their progress: what they look for a committed transaction left
     * open with, described for all of them at once ({@link HangingTransactionCheck#lookForCommitsLeftOpen}).
     */
    public void lookForCommitsLeftOpen(Map<String, Set<String>> topicsById) {
        setup.hanging().lookForCommitsLeftOpen(topicsById);
    }

    /** The writer of {@code source}, after asking whether its transactional id's last transaction was aborted. */
    public PartitionWriter create(TopicPartition source) {
        String transactionalId = transactionalId(config.transactionalIdPrefix(), source);
        return create(source, setup.hanging().lastTransactionAborted(transactionalId));
    }

    private PartitionWriter create(TopicPartition source, boolean lastAborted) {
        String transactionalId = transactionalId(config.transactionalIdPrefix(), source);
        TxnSendProducer<byte[], byte[]> producer = producer(transactionalId);
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
                    + config.transactionalIdPrefix() + ": (" + TransactionalSinkConfig.TRANSACTIONAL_ID_PREFIX_CONFIG
                    + ")" : ""), e);
        }
        return new PartitionWriter(source, new TargetProducer(producer, transactionalId), setup, lastAborted);
    }

    /** A new producer of {@code transactionalId}, its memory sized for the task's producers, on the task's cache. */
    private TxnSendProducer<byte[], byte[]> producer(String transactionalId) {
        Map<String, Object> configs = new HashMap<>(config.producerConfigs());
        configs.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalId);
        configs.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        configs.putIfAbsent(ProducerConfig.CLIENT_ID_CONFIG, transactionalId);
        ProducerMemory.size(configs, config.producersMemoryBytes(), producers);
        Producer<byte[], byte[]> given = producerFactory.apply(configs);
        return given == null
                ? new TxnSendProducer<>(configs, new ByteArraySerializer(), new ByteArraySerializer(), topics)
                : TxnSendProducer.wrap(given, configs, new ByteArraySerializer(), new ByteArraySerializer(), topics);
    }

    /** Closes the converters and the task's topic-metadata cache; call after closing every writer. */
    @Override
    public void close() {
        try {
            setup.converter().close();
        } finally {
            topics.close();
        }
    }
}
