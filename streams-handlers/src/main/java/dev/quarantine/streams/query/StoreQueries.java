package dev.quarantine.streams.query;

import java.time.Duration;
import java.util.Map;
import java.util.Objects;

import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.query.QueryResult;
import org.apache.kafka.streams.query.StateQueryRequest;
import org.apache.kafka.streams.query.StateQueryResult;
import org.apache.kafka.streams.state.HostInfo;
import org.apache.kafka.streams.state.QueryableStoreTypes;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;
import org.apache.kafka.streams.state.ReadOnlySessionStore;
import org.apache.kafka.streams.state.ReadOnlyWindowStore;

/**
 * Interactive queries whose failures come in three categories a caller can act on (the idea of KIP-216):
 * {@link StateStoreRetryableException} (wait and ask again), {@link StateStoreMigratedException} (ask the owner it
 * names) and {@link StateStoreFailException} (give up). All three extend Kafka's {@link InvalidStateStoreException}.
 *
 * <pre>{@code
 * StoreQueries queries = StoreQueries.of(streams, HostInfo.buildFromEndpoint("127.0.0.1:7070"));
 * ReadOnlyKeyValueStore<String, Long> counts = queries.store(
 *         StoreQueryParameters.fromNameAndType("counts", QueryableStoreTypes.keyValueStore()), new StringSerializer());
 * QueryOutcome<Long> outcome = queries.retrying(Duration.ofSeconds(10)).call(() -> counts.get("alice"));
 * if (outcome.isMigrated()) { ... forward to outcome.owner() ... } else { ... outcome.value() ... }
 * }</pre>
 *
 * <p>Kafka declares {@code StreamsRebalancingException}, {@code StateStoreMigratedException} and
 * {@code StateStoreNotAvailableException} but never throws them: it throws the base {@code InvalidStateStoreException}
 * with a message, and {@code IllegalStateException} from {@code store()} when the instance does not run. So the
 * category is decided from Kafka's specific exception types, then from the instance's {@link KafkaStreams.State} at
 * the moment of the error, then from whether this instance still hosts the store, partition or key (its metadata);
 * message text is used only to recognise a store of the wrong type and Kafka's "may have migrated".
 *
 * <table>
 * <caption>How errors map to categories</caption>
 * <tr><th>Error, and the state of the instance when it happened</th><th>Category</th></tr>
 * <tr><td>{@code StreamsNotStartedException}, or any error while {@code CREATED}</td><td>RETRYABLE</td></tr>
 * <tr><td>any error while {@code RUNNING} or {@code REBALANCING}, and this instance hosts what was read (or cannot
 *     tell)</td><td>RETRYABLE</td></tr>
 * <tr><td>any error while {@code RUNNING} or {@code REBALANCING}, and the metadata names another instance as
 *     host</td><td>MIGRATED (with that host)</td></tr>
 * <tr><td>"may have migrated" or {@code InvalidStateStorePartitionException} while {@code RUNNING}, and the metadata
 *     names no host</td><td>MIGRATED (owner unknown); FATAL for a partition no instance hosts</td></tr>
 * <tr><td>any error while {@code PENDING_SHUTDOWN}, {@code NOT_RUNNING}, {@code PENDING_ERROR}, {@code ERROR}
 *     (incl. {@code IllegalStateException} from {@code store()}), and {@code StreamsStoppedException}</td>
 *     <td>FATAL</td></tr>
 * <tr><td>{@code UnknownStateStoreException}; a store of another type than the one queried</td><td>FATAL</td></tr>
 * <tr><td>a read by key that finds nothing here while {@code queryMetadataForKey} names another host</td>
 *     <td>MIGRATED (with that host)</td></tr>
 * <tr><td>a read by key that finds nothing here while the metadata is {@code KeyQueryMetadata.NOT_AVAILABLE}</td>
 *     <td>RETRYABLE</td></tr>
 * <tr><td>an iterator that ends because its store closed (a moved task, a stopping instance)</td><td>by the rules
 *     above</td></tr>
 * <tr><td>IQv2 {@code NOT_UP_TO_BOUND}</td><td>RETRYABLE (FATAL if the instance stops)</td></tr>
 * <tr><td>IQv2 {@code NOT_ACTIVE}, {@code NOT_PRESENT}</td><td>as "may have migrated": MIGRATED if another instance
 *     hosts the partition, RETRYABLE if this one does or while rebalancing</td></tr>
 * <tr><td>IQv2 {@code STORE_EXCEPTION}</td><td>by the state rules above</td></tr>
 * <tr><td>IQv2 {@code DOES_NOT_EXIST}, {@code UNKNOWN_QUERY_TYPE}</td><td>FATAL</td></tr>
 * <tr><td>the caller's own errors: {@code NoSuchElementException}, {@code UnsupportedOperationException},
 *     {@code IllegalArgumentException}, {@code NullPointerException}</td><td>not classified: thrown as they
 *     are</td></tr>
 * </table>
 *
 * <p>The owner of a migrated store is known only when the application sets {@code application.server} and this
 * instance's own endpoint is given to {@link #of(KafkaStreams, HostInfo)}. Instances are thread-safe.
 */
public final class StoreQueries {

    private final StreamsView streams;
    private final Classifier classifier;

    StoreQueries(StreamsView streams, HostInfo self) {
        this.streams = streams;
        this.classifier = new Classifier(streams, self);
    }

    /** Queries on {@code streams} without metadata-based owner lookup (this instance's endpoint unknown). */
    public static StoreQueries of(KafkaStreams streams) {
        return new StoreQueries(StreamsView.of(streams), null);
    }

    /**
     * Queries on {@code streams}, whose {@code application.server} is {@code self}: classification then consults
     * the application's metadata to tell "here, not ready" (RETRYABLE) from "moved to X" (MIGRATED to X).
     */
    public static StoreQueries of(KafkaStreams streams, HostInfo self) {
        return new StoreQueries(StreamsView.of(streams), Objects.requireNonNull(self, "self"));
    }

    /**
     * {@link KafkaStreams#store(StoreQueryParameters)}, with classified errors from the lookup and from every read of
     * the returned store and its iterators. Key-value, window and session stores (including the timestamped
     * variants of {@link QueryableStoreTypes}) are wrapped; a store of a custom type is returned as Kafka returns it.
     *
     * @throws InvalidStateStoreException one of the three classified exceptions
     */
    public <T> T store(StoreQueryParameters<T> parameters) {
        return lookup(parameters, null);
    }

    /**
     * As {@link #store(StoreQueryParameters)}, and a read by key that finds nothing here throws
     * {@link StateStoreMigratedException} naming the owner when the key lives on another instance (Kafka's own store
     * answers {@code null}); {@code keySerializer} must be the one the store's topic is partitioned with.
     */
    public <K, T> T store(StoreQueryParameters<T> parameters, Serializer<K> keySerializer) {
        return lookup(parameters, Objects.requireNonNull(keySerializer, "keySerializer"));
    }

    /**
     * {@link KafkaStreams#query(StateQueryRequest)} that returns the result only if every partition answered.
     *
     * @throws InvalidStateStoreException the most severe classified failure among the partitions
     *                                    ({@link StoreErrorCategory#outranks}: FATAL, then RETRYABLE, then MIGRATED)
     */
    public <R> StateQueryResult<R> query(StateQueryRequest<R> request) {
        String storeName = request.getStoreName();
        StateQueryResult<R> result;
        try {
            result = streams.query(request);
        } catch (RuntimeException e) {
            throw classifyUnlessCallerError(e, Target.store(storeName));
        }
        InvalidStateStoreException worst = null;
        QueryResult<R> global = result.getGlobalResult();
        if (global != null && global.isFailure()) {
            worst = classifier.classify(global.getFailureReason(), global.getFailureMessage(), Target.store(storeName));
        }
        for (Map.Entry<Integer, QueryResult<R>> entry : result.getPartitionResults().entrySet()) {
            QueryResult<R> partitionResult = entry.getValue();
            if (partitionResult.isFailure()) {
                Target target = Target.partition(storeName, entry.getKey(), !request.isRequireActive());
                worst = moreSevere(worst, classifier.classify(partitionResult.getFailureReason(),
                        partitionResult.getFailureMessage(), target));
            }
        }
        if (worst != null) {
            throw worst;
        }
        return result;
    }

    /** The category of {@code error}, as one of the three exceptions, for a read of store {@code storeName}. */
    public InvalidStateStoreException classify(Throwable error, String storeName) {
        return classifier.classify(Objects.requireNonNull(error, "error"), Target.store(storeName));
    }

    /**
     * A policy that retries RETRYABLE errors with backoff until {@code deadline} has passed, returns MIGRATED as an
     * outcome and throws FATAL at once.
     */
    public RetryPolicy retrying(Duration deadline) {
        return RetryPolicy.systemClock(classifier, deadline);
    }

    private <T> T lookup(StoreQueryParameters<T> parameters, Serializer<?> keySerializer) {
        Objects.requireNonNull(parameters, "parameters");
        Target target = target(parameters, keySerializer);
        T raw;
        try {
            raw = streams.store(parameters);
        } catch (RuntimeException e) {
            throw classifyUnlessCallerError(e, target);
        }
        return wrap(raw, parameters, new ReadGuard(streams, classifier, target));
    }

    @SuppressWarnings("unchecked")
    private static <T> T wrap(T raw, StoreQueryParameters<T> parameters, ReadGuard guard) {
        if (parameters.queryableStoreType().getClass().getEnclosingClass() != QueryableStoreTypes.class) {
            return raw; // a custom store type: T may be an interface the wrappers do not implement
        }
        if (raw instanceof ReadOnlyKeyValueStore) {
            return (T) new ClassifyingKeyValueStore<>((ReadOnlyKeyValueStore<Object, Object>) raw, guard);
        }
        if (raw instanceof ReadOnlyWindowStore) {
            return (T) new ClassifyingWindowStore<>((ReadOnlyWindowStore<Object, Object>) raw, guard);
        }
        if (raw instanceof ReadOnlySessionStore) {
            return (T) new ClassifyingSessionStore<>((ReadOnlySessionStore<Object, Object>) raw, guard);
        }
        return raw;
    }

    @SuppressWarnings("unchecked")
    private static Target target(StoreQueryParameters<?> parameters, Serializer<?> keySerializer) {
        return new Target(parameters.storeName(), parameters.partition(), parameters.staleStoresEnabled(), null,
                (Serializer<Object>) keySerializer);
    }

    private RuntimeException classifyUnlessCallerError(RuntimeException error, Target target) {
        return Classifier.isCallerError(error) ? error : classifier.classify(error, target);
    }

    private static InvalidStateStoreException moreSevere(InvalidStateStoreException current,
                                                        InvalidStateStoreException candidate) {
        return current == null || category(candidate).outranks(category(current)) ? candidate : current;
    }

    private static StoreErrorCategory category(InvalidStateStoreException error) {
        if (error instanceof StateStoreFailException) {
            return StoreErrorCategory.FATAL;
        }
        return error instanceof StateStoreRetryableException ? StoreErrorCategory.RETRYABLE : StoreErrorCategory.MIGRATED;
    }
}
