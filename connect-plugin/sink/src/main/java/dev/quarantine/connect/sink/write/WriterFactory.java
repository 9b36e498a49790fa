package dev.quarantine.connect.sink.write;

import java.util.HashMap;
import java.util.Set;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.IntSupplier;
import java.util.function.Supplier;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.serialization.ByteArraySerializer;

import dev.quarantine.connect.sink.cluster.HangingTransactionCheck;
import dev.quarantine.connect.sink.config.ConfigRules;
import dev.quarantine.connect.sink.config.TransactionalSinkConfig;
import dev.quarantine.connect.sink.metrics.SinkMetrics;
import dev.quarantine.connect.sink.ownership.ProducerEpoch;
import dev.quarantine.connect.sink.ownership.SlotProducer;
import dev.quarantine.connect.sink.progress.ProgressRecord.Holder;
import dev.quarantine.connect.sink.progress.OwnershipRecord;
import dev.quarantine.connect.sink.progress.ProgressTarget;
import dev.quarantine.txn.SharedTopicMetadata;
import dev.quarantine.txn.TxnSendProducer;

/**
 * Builds a task's write path (docs/design/sink-ownership.md 2.6): the transactional producer of each task slot
 * ({@link #slotProducer}), the slot's {@link TaskWriter} and, per commit trigger, its {@link TaskTransaction}.
 *
 * <p>Every producer of the task reads one {@link SharedTopicMetadata} for its up-front topic checks (one admin client
 * and one description of each target and dead-letter topic per task), closed with the factory, after the producers.
 */
public final class WriterFactory implements AutoCloseable {

    private final TransactionalSinkConfig config;
    private final WriteSetup setup;
    private final Function<Map<String, Object>, Producer<byte[], byte[]>> producerFactory;
    private final SharedTopicMetadata topics;
    private final SlotTopics slotTopics;
    private final TransactionTally tally;

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
        this.slotTopics = new SlotTopics(setup.converter()::targetTopic, deadLetterTopic(), setup.progress().topic());
        this.tally = new TransactionTally(setup.metrics(), setup.breaker());
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
     * A slot's producer (id {@code <prefix>:task#<n>.<j>}, design 2.1), not yet initialised, its memory sized for
     * {@code slots} slots writing {@code partitionsWritten} target and dead-letter partitions
     * ({@link ProducerMemory#sizeSlot}); {@code describeEpoch} tells its producer id and epoch after each init.
     */
    public SlotProducer slotProducer(String transactionalId, int slots, IntSupplier partitionsWritten,
                                     Function<String, ProducerEpoch> describeEpoch) {
        return new ProducerPerInit(() -> {
            Map<String, Object> configs = new HashMap<>(config.producerConfigs());
            configs.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalId);
            configs.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
            configs.putIfAbsent(ProducerConfig.CLIENT_ID_CONFIG, transactionalId);
            ProducerMemory.sizeSlot(configs, config.producersMemoryBytes(), slots, partitionsWritten.getAsInt());
            Producer<byte[], byte[]> given = producerFactory.apply(configs);
            TxnSendProducer<byte[], byte[]> producer = given == null
                    ? new TxnSendProducer<>(configs, new ByteArraySerializer(), new ByteArraySerializer(), topics)
                    : TxnSendProducer.wrap(given, configs, new ByteArraySerializer(), new ByteArraySerializer(),
                            topics);
            return new TxnSendSlotProducer(producer, transactionalId, describeEpoch);
        });
    }

    /**
     * {@code slot}'s producer as {@link dev.quarantine.connect.sink.ownership.Ownership} initialises it: each init
     * repairs what the id's last transaction left hanging ({@link HangingRepair}) on the target topics of
     * {@code sources} (the partitions the slot is assigned at that init), the dead-letter and the progress topic.
     */
    public SlotProducer repairingHanging(SlotProducer slot, String transactionalId,
                                         Supplier<Collection<TopicPartition>> sources) {
        return new HangingRepair(slot, transactionalId, setup.hanging(),
                () -> slotTopics.targetsAndDeadLetters(sources.get()), setup.progress().topic());
    }

    /**
     * After a transaction of the slot {@code transactionalId} ended in an abort of its own: what that abort left open
     * where a broker skipped its markers (its next commit marker would commit those records next to their copies
     * written again) is aborted on the target topics of {@code sources}, the dead-letter and the progress topic
     * ({@link dev.quarantine.connect.sink.cluster.HangingTransactionCheck#abortBeforeWriting}: only ranges of the
     * aborted transaction the coordinator no longer lists).
     */
    public void afterOwnAbort(String transactionalId, Collection<TopicPartition> sources) {
        setup.hanging().abortBeforeWriting(transactionalId, slotTopics.withProgress(sources));
    }

    /** What a slot writing {@code sources} writes: their target topics, the dead-letter and the progress topic. */
    public Set<String> topicsWrittenWithProgress(Collection<TopicPartition> sources) {
        return slotTopics.withProgress(sources);
    }

    /** The task's check of transactions its ids left hanging. */
    public HangingTransactionCheck hanging() {
        return setup.hanging();
    }

    /**
     * A short-lived transactional producer of {@code transactionalId} (the target producer's settings), not
     * initialised: what completes a transaction of that id left open on the progress topic
     * ({@link dev.quarantine.connect.sink.ownership.LeftOpenCompletion}).
     */
    public Producer<byte[], byte[]> completionProducer(String transactionalId) {
        return completionProducer(config, transactionalId);
    }

    /** As {@link #completionProducer(String)}, from {@code config} alone (the connector's offsets API). */
    public static Producer<byte[], byte[]> completionProducer(TransactionalSinkConfig config, String transactionalId) {
        return shortLivedProducer(config, transactionalId, "-completion");
    }

    /**
     * A plain transactional producer of {@code transactionalId} with the target producer's settings, not initialised,
     * its {@code client.id} the id plus {@code clientIdSuffix}: for the short transactions outside a slot (a
     * completion, the offsets API's change).
     */
    public static KafkaProducer<byte[], byte[]> shortLivedProducer(TransactionalSinkConfig config,
                                                                   String transactionalId, String clientIdSuffix) {
        return new KafkaProducer<>(shortLivedConfigs(config, transactionalId, clientIdSuffix),
                new ByteArraySerializer(), new ByteArraySerializer());
    }

    /**
     * The producer of the offsets API's id ({@code <prefix>:offsets#0}, design 2.1), not yet initialised, as
     * {@link dev.quarantine.connect.sink.ownership.Ownership} initialises it: a new Kafka producer at each init
     * ({@link ProducerPerInit}), each init repairing what the id's last transaction left hanging
     * ({@link HangingRepair}) on the one topic the id writes, the progress topic; {@code describeEpoch} tells its
     * producer id and epoch after each init.
     */
    public static SlotProducer offsetsProducer(TransactionalSinkConfig config, HangingTransactionCheck hanging,
                                               Function<String, ProducerEpoch> describeEpoch) {
        String id = OwnershipRecord.offsetsId(config.transactionalIdPrefix());
        SlotProducer producer = new ProducerPerInit(() -> new TxnSendSlotProducer(new TxnSendProducer<>(
                shortLivedConfigs(config, id, "-offsets"), new ByteArraySerializer(), new ByteArraySerializer()), id,
                describeEpoch));
        return new HangingRepair(producer, id, hanging, List::of, config.progressTopic());
    }

    private static Map<String, Object> shortLivedConfigs(TransactionalSinkConfig config, String transactionalId,
                                                         String clientIdSuffix) {
        Map<String, Object> configs = new HashMap<>(config.producerConfigs());
        configs.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalId);
        configs.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        configs.put(ProducerConfig.CLIENT_ID_CONFIG, transactionalId + clientIdSuffix);
        configs.keySet().retainAll(ProducerConfig.configNames());
        return configs;
    }

    /**
     * The write path of one slot: its records converted by the task's converters with each source partition's
     * target partition counts ({@link ProgressTarget#mappedPartitions}); a record the converters fail on for good is
     * dead-lettered as the input record in the fallback encoding.
     */
    public TaskWriter taskWriter(Supplier<SlotProducer> producer, TaskWriter.AfterAbort afterAbort) {
        ProgressTarget target = setup.progress();
        return new TaskWriter(record -> setup.converter().convert(record, target.mappedPartitions(
                new TopicPartition(record.originalTopic(), record.originalKafkaPartition()))),
                (record, refused, error) -> letters(producer.get()).of(record, refused, error),
                target::mappedPartitions, tally, afterAbort, ConfigRules.sendsAhead(config));
    }

    /**
     * A transaction of {@code producer}, slot {@code id}, whose partitions' progress records name the claims
     * {@code holders} gives (rule W); dead letters within what the slot's producer accepts for the dead-letter topic.
     */
    public TaskTransaction transaction(SlotProducer producer, String id, Function<TopicPartition, Holder> holders) {
        return new TaskTransaction(producer, id, holders, new ProgressKeys(setup.progress().partition(),
                config.transactionalIdPrefix()), letters(producer), config.maxBlock(), tally, setup.topicIds()::of);
    }

    /** Dead letters within what {@code producer} accepts for the dead-letter topic; none in strict mode. */
    private TaskTransaction.Letters letters(SlotProducer producer) {
        return (record, refused, error) -> setup.deadLetters().map(deadLetters -> {
            try {
                return deadLetters.build(record, refused, refused == null ? setup.converter().targetTopic(record)
                        : refused.topic(), error, maxRecordBytes(producer, deadLetters.topic()));
            } catch (RecordTooLargeException e) {
                throw new WriterErrors.DeadLetterFailed(record, deadLetters.topic(), e); // not even a minimal one fits
            }
        });
    }

    private static int maxRecordBytes(SlotProducer producer, String topic) {
        return producer instanceof ProducerPerInit slot ? slot.current().maxRecordBytes(topic) : Integer.MAX_VALUE;
    }

    /** The dead-letter topic, when there is one. */
    public Optional<String> deadLetterTopic() {
        return setup.deadLetters().map(DeadLetters::topic);
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
