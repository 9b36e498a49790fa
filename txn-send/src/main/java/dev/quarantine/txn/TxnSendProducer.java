package dev.quarantine.txn;

import java.time.Duration;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.Future;

import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.errors.InterruptException;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.apache.kafka.common.metrics.KafkaMetric;
import org.apache.kafka.common.serialization.Serializer;

/**
 * A {@link Producer} whose {@link #send(ProducerRecord, Callback, TxnSendOption)} can leave a record that cannot be
 * sent out of a transaction, instead of dooming the transaction (the idea of KIP-1059).
 *
 * <p>With {@link TxnSendOption#IGNORE_SEND_ERRORS}, a record is serialized and checked before it enters a batch:
 * serialization (and a serializer's ClassCastException), {@code max.request.size} and {@code buffer.memory}, a legal
 * topic name, that the topic exists (without waiting {@code max.block.ms} when the brokers do not create topics),
 * that the partition exists, and, from the topic's configuration (read once with an admin client and cached), its
 * {@code max.message.bytes}, a key on a compacted topic, and {@code message.timestamp.before.max.ms} /
 * {@code after.max.ms}. A record that fails a check is not sent: its callback and future complete with the
 * exception Kafka would have raised (RecordTooLargeException, SerializationException, InvalidTopicException,
 * UnknownTopicOrPartitionException, InvalidRecordException, InvalidTimestampException), and the transaction commits
 * every other record. A retriable failure of the check itself (the topic could not be described in time) is
 * reported the same way, as a TimeoutException. Fatal errors (fencing, authorization, a closed producer, misuse)
 * are thrown, never ignored.
 *
 * <p>What cannot be caught up front: a broker-side rejection the topic's configuration does not predict (a broker
 * setting or a topic config changed since it was cached, a timestamp that crosses its limit while the record waits
 * in the batch, a compressed batch layout, a custom broker policy, a disk or quota failure). Such a record fails in
 * the batch, Kafka puts the producer into an abortable error state, and {@link #commitTransaction()} throws;
 * abort, then replay the transaction without the failing record (its callback names it).
 *
 * <p>With {@link TxnSendOption#NONE}, and for the one- and two-argument {@code send} unless
 * {@code txn.send.default.option} says otherwise, every call goes straight to {@code KafkaProducer}.
 *
 * <p>Each producer reads topic metadata with an admin client of its own, created on first use; many producers writing
 * to one cluster can share one instead ({@link SharedTopicMetadata}).
 *
 * <p>Thread-safe, like KafkaProducer. Its own settings are in {@link TxnSendConfig}.
 */
public class TxnSendProducer<K, V> implements Producer<K, V> {

    /** How many topics {@link #prepareTopics} asks the producer's metadata of at once. */
    public static final int PREPARING_THREADS = 16;

    private final Producer<K, V> delegate;
    private final RecordGate<K, V> gate;
    private final LeftOutRecords leftOut;
    private final TxnSendOption defaultOption;
    private final TopicPreparer preparer;
    private final TransactionState transaction;

    /** Like {@code new KafkaProducer<>(configs)}; {@code txn.send.*} settings are read and removed. */
    public TxnSendProducer(Map<String, Object> configs) {
        this(configs, null, null);
    }

    /** Like {@code new KafkaProducer<>(configs, keySerializer, valueSerializer)}; either serializer may be null. */
    public TxnSendProducer(Map<String, Object> configs, Serializer<K> keySerializer, Serializer<V> valueSerializer) {
        this(new TxnSendConfig(configs), configs, RecordSerializer.reusing(configs, keySerializer, valueSerializer),
                null, Optional.empty());
    }

    /**
     * Like {@link #TxnSendProducer(Map, Serializer, Serializer)}, with the topic checks reading {@code topics}, shared
     * with other producers, instead of a cache and admin client of its own. Closing this producer leaves
     * {@code topics} open: its creator closes it, after its producers.
     */
    public TxnSendProducer(Map<String, Object> configs, Serializer<K> keySerializer, Serializer<V> valueSerializer,
                           SharedTopicMetadata topics) {
        this(new TxnSendConfig(configs), configs, RecordSerializer.reusing(configs, keySerializer, valueSerializer),
                null, Optional.of(Objects.requireNonNull(topics, "topics")));
    }

    /** Like {@code new KafkaProducer<>(properties)}. */
    public TxnSendProducer(Properties properties) {
        this(TxnSendConfig.asMap(properties), null, null);
    }

    /** Like {@code new KafkaProducer<>(properties, keySerializer, valueSerializer)}. */
    public TxnSendProducer(Properties properties, Serializer<K> keySerializer, Serializer<V> valueSerializer) {
        this(TxnSendConfig.asMap(properties), keySerializer, valueSerializer);
    }

    private TxnSendProducer(TxnSendConfig config, Map<String, ?> configs, RecordSerializer<K, V> serializer,
                            Producer<K, V> wrapped, Optional<SharedTopicMetadata> topics) {
        this.transaction = new TransactionState(config.transactionalId().isPresent());
        this.defaultOption = config.defaultOption();
        this.gate = RecordGate.create(config, configs, serializer, topics);
        this.leftOut = new LeftOutRecords(config.clientId());
        this.delegate = wrapped != null ? wrapped
                : new KafkaProducer<>(TxnSendConfig.withoutOurs(configs), serializer.keyForProducer(),
                        serializer.valueForProducer());
        this.preparer = new TopicPreparer(delegate, gate, config.clientId(), config.metadataMaxIdle());
    }

    /**
     * Wraps an existing producer. {@code configs} must be the ones it was built with (its limits, its
     * {@code transactional.id}, and the connection settings for the admin client that reads topic configs); the
     * serializers it names are instantiated for the up-front checks, so each record is serialized twice.
     */
    public static <K, V> TxnSendProducer<K, V> wrap(Producer<K, V> producer, Map<String, ?> configs) {
        return wrap(producer, configs, null, null);
    }

    /** Wraps an existing producer built with {@code configs} and these serializer instances (either may be null). */
    public static <K, V> TxnSendProducer<K, V> wrap(Producer<K, V> producer, Map<String, ?> configs,
                                                    Serializer<K> keySerializer, Serializer<V> valueSerializer) {
        Objects.requireNonNull(producer, "producer");
        return new TxnSendProducer<>(new TxnSendConfig(configs), configs,
                RecordSerializer.separate(configs, keySerializer, valueSerializer), producer, Optional.empty());
    }

    /**
     * Wraps an existing producer built with {@code configs} and these serializer instances (either may be null), its
     * topic checks reading {@code topics}, which closing it leaves open (see {@link SharedTopicMetadata}).
     */
    public static <K, V> TxnSendProducer<K, V> wrap(Producer<K, V> producer, Map<String, ?> configs,
                                                    Serializer<K> keySerializer, Serializer<V> valueSerializer,
                                                    SharedTopicMetadata topics) {
        Objects.requireNonNull(producer, "producer");
        return new TxnSendProducer<>(new TxnSendConfig(configs), configs,
                RecordSerializer.separate(configs, keySerializer, valueSerializer), producer,
                Optional.of(Objects.requireNonNull(topics, "topics")));
    }

    /**
     * Sends {@code record} as {@link TxnSendOption option} says; see the class documentation.
     *
     * @throws IllegalStateException with IGNORE_SEND_ERRORS, when the producer is not transactional, no
     *                               transaction is in progress, or the producer is closed
     */
    public Future<RecordMetadata> send(ProducerRecord<K, V> record, Callback callback, TxnSendOption option) {
        Objects.requireNonNull(option, "option");
        if (option == TxnSendOption.NONE) {
            return delegate.send(record, callback);
        }
        Objects.requireNonNull(record, "record");
        transaction.requireInProgress();
        Optional<RuntimeException> rejection = gate.admit(record);
        if (rejection.isPresent()) {
            return leftOut.leaveOut(record, callback, rejection.get());
        }
        try {
            return delegate.send(record, callback);
        } finally {
            gate.sent();
        }
    }

    /** {@code send(record, null, defaultOption)}. */
    @Override
    public Future<RecordMetadata> send(ProducerRecord<K, V> record) {
        return send(record, null, defaultOption);
    }

    /** {@code send(record, callback, defaultOption)}. */
    @Override
    public Future<RecordMetadata> send(ProducerRecord<K, V> record, Callback callback) {
        return send(record, callback, defaultOption);
    }

    /**
     * The largest record, as the producer measures it (the serialized key, value and headers plus a batch's
     * overhead), that this producer sends to {@code topic}: the smallest of {@code max.request.size},
     * {@code buffer.memory} and the topic's {@code max.message.bytes} as read for the up-front checks (cached like
     * them; left out when the topic does not exist or topic checks are off). The limit to build a dead letter
     * within: {@link DeadLetterRecordBuilder#build(DeadLetter, int)}.
     *
     * @throws org.apache.kafka.common.errors.TimeoutException when the topic's configuration could not be read within
     *                                                         {@code max.block.ms} (retriable)
     */
    public int maxRecordBytes(String topic) {
        return gate.maxRecordBytes(topic);
    }

    /**
     * Readies the sends of records to {@code topics}, before they are sent, within {@code within}: the topics the
     * up-front checks do not know yet are described all at once, and the producer's metadata of the existing ones among
     * them is fetched up to {@value #PREPARING_THREADS} topics at a time ({@code partitionsFor} on short-lived
     * threads), instead of one topic after another as each topic's first record is sent (a producer blocks a send to a
     * topic it has no metadata of for a round trip). Worth it for many topics at once, as when a sink starts writing
     * hundreds of topics. A topic readied less than {@code metadata.max.idle.ms} ago (the producer's own metadata
     * expiry) costs a map look-up. Never fails for a topic: what did not answer within {@code within} is left to its
     * first send, which then waits or fails as it would have. Without topic checks
     * ({@code txn.send.topic.checks.enable=false}) it does nothing.
     *
     * @throws InterruptException when the calling thread is interrupted
     */
    public void prepareTopics(Collection<String> topics, Duration within) {
        preparer.prepare(topics, within);
    }

    /** The option the one- and two-argument sends use ({@code txn.send.default.option}). */
    public TxnSendOption defaultOption() {
        return defaultOption;
    }

    @Override
    public void initTransactions() {
        delegate.initTransactions();
    }

    @Override
    public void beginTransaction() throws ProducerFencedException {
        delegate.beginTransaction();
        transaction.begun();
    }

    @Override
    public void sendOffsetsToTransaction(Map<TopicPartition, OffsetAndMetadata> offsets,
                                         ConsumerGroupMetadata groupMetadata) throws ProducerFencedException {
        delegate.sendOffsetsToTransaction(offsets, groupMetadata);
    }

    @Override
    public void commitTransaction() throws ProducerFencedException {
        delegate.commitTransaction();
        transaction.ended();
    }

    @Override
    public void abortTransaction() throws ProducerFencedException {
        delegate.abortTransaction();
        transaction.ended();
    }

    @Override
    public void registerMetricForSubscription(KafkaMetric metric) {
        delegate.registerMetricForSubscription(metric);
    }

    @Override
    public void unregisterMetricFromSubscription(KafkaMetric metric) {
        delegate.unregisterMetricFromSubscription(metric);
    }

    @Override
    public void flush() {
        delegate.flush();
    }

    @Override
    public List<PartitionInfo> partitionsFor(String topic) {
        return delegate.partitionsFor(topic);
    }

    /** The producer's metrics and ours ({@code txn-send-metrics}: records left out, by error class). */
    @Override
    public Map<MetricName, ? extends Metric> metrics() {
        Map<MetricName, Metric> all = new HashMap<>(delegate.metrics());
        all.putAll(leftOut.metrics().metrics());
        return Collections.unmodifiableMap(all);
    }

    @Override
    public Uuid clientInstanceId(Duration timeout) {
        return delegate.clientInstanceId(timeout);
    }

    @Override
    public void close() {
        close(Duration.ofMillis(Long.MAX_VALUE));
    }

    @Override
    public void close(Duration timeout) {
        transaction.closed();
        try {
            delegate.close(timeout);
        } finally {
            try {
                gate.close();
            } finally {
                leftOut.close();
            }
        }
    }
}
