package dev.quarantine.streams.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Set;
import java.util.stream.Stream;

import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.KeyQueryMetadata;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.processor.TaskId;
import org.apache.kafka.streams.query.FailureReason;
import org.apache.kafka.streams.query.KeyQuery;
import org.apache.kafka.streams.query.QueryResult;
import org.apache.kafka.streams.query.StateQueryRequest;
import org.apache.kafka.streams.query.StateQueryResult;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.QueryableStoreType;
import org.apache.kafka.streams.state.QueryableStoreTypes;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;
import org.apache.kafka.streams.state.ReadOnlySessionStore;
import org.apache.kafka.streams.state.ReadOnlyWindowStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class StoreQueriesTest {

    private static final String STORE = "counts";
    private static final StoreQueryParameters<ReadOnlyKeyValueStore<String, String>> KEY_VALUE =
            StoreQueryParameters.fromNameAndType(STORE, QueryableStoreTypes.keyValueStore());

    private final FakeStreams streams = new FakeStreams().hosts(FakeStreams.SELF, STORE, 0, 1);
    private final StoreQueries queries = new StoreQueries(streams, FakeStreams.SELF);

    static Stream<Arguments> storeTypes() {
        return Stream.of(
                Arguments.of(ReadOnlyKeyValueStore.class, QueryableStoreTypes.keyValueStore()),
                Arguments.of(ReadOnlyWindowStore.class, QueryableStoreTypes.windowStore()),
                Arguments.of(ReadOnlySessionStore.class, QueryableStoreTypes.sessionStore()));
    }

    @ParameterizedTest
    @MethodSource("storeTypes")
    void everyReadOfAWrappedStoreCallsTheSameReadOfKafkasStore(Class<?> type, QueryableStoreType<?> storeType) throws Exception {
        List<Method> called = new ArrayList<>();
        streams.store = FakeStores.proxy(type, (proxy, method, args) -> {
            called.add(method);
            return FakeStores.answerFor(proxy, method);
        });
        Object wrapped = queries.store(StoreQueryParameters.fromNameAndType(STORE, storeType));

        assertThat(wrapped).isInstanceOf(type).isNotSameAs(streams.store);
        for (Method method : reads(type)) {
            Object answer = method.invoke(wrapped, FakeStores.argumentsFor(method));
            assertThat(called).as(method.toString()).last().isEqualTo(method);
            assertThat(answer).as(method.toString()).isInstanceOf(method.getReturnType() == long.class ? Long.class : method.getReturnType());
        }
    }

    @ParameterizedTest
    @MethodSource("storeTypes")
    void everyReadOfAWrappedStoreThrowsOnlyClassifiedErrors(Class<?> type, QueryableStoreType<?> storeType) throws Exception {
        streams.store = FakeStores.failing(type, new InvalidStateStoreException("Store counts is currently closed."));
        streams.state(KafkaStreams.State.REBALANCING);
        Object wrapped = queries.store(StoreQueryParameters.fromNameAndType(STORE, storeType));

        for (Method method : reads(type)) {
            assertThat(thrownBy(wrapped, method)).as(method.toString()).isInstanceOf(StateStoreRetryableException.class);
        }
    }

    @Test
    void everyIteratorCallThrowsOnlyClassifiedErrors() {
        KeyValueIterator<?, ?> failing = FakeStores.failing(KeyValueIterator.class,
                new InvalidStateStoreException("RocksDB iterator for store counts has closed"));
        streams.store = FakeStores.proxy(ReadOnlyKeyValueStore.class, (proxy, method, args) -> failing);
        streams.state(KafkaStreams.State.PENDING_SHUTDOWN);
        KeyValueIterator<String, String> iterator = queries.store(KEY_VALUE).all();

        assertThatThrownBy(iterator::hasNext).isInstanceOf(StateStoreFailException.class);
        assertThatThrownBy(iterator::next).isInstanceOf(StateStoreFailException.class);
        assertThatThrownBy(iterator::peekNextKey).isInstanceOf(StateStoreFailException.class);
        assertThatThrownBy(iterator::close).isInstanceOf(StateStoreFailException.class);
    }

    @Test
    void anIteratorThatEndsAfterOneOfItsTasksClosedFailsInsteadOfEndingQuietly() {
        serveAll(List.of(KeyValue.pair("a", "1"), KeyValue.pair("b", "2")));
        KeyValueIterator<String, String> iterator = queries.store(KEY_VALUE).all();
        assertThat(iterator.next()).isEqualTo(KeyValue.pair("a", "1"));

        streams.localTasks = Set.of(new TaskId(0, 0));
        streams.storeMetadata.clear();
        streams.hosts(FakeStreams.SELF, STORE, 0).hosts(FakeStreams.OTHER, STORE, 1);

        assertThat(iterator.next()).isEqualTo(KeyValue.pair("b", "2"));
        assertThatThrownBy(iterator::hasNext).isInstanceOf(StateStoreRetryableException.class)
                .hasMessageContaining("ended early");
    }

    @Test
    void anIteratorWhoseTasksStayedEndsNormally() {
        serveAll(List.of(KeyValue.pair("a", "1")));
        KeyValueIterator<String, String> iterator = queries.store(KEY_VALUE).all();

        assertThat(iterator.next()).isEqualTo(KeyValue.pair("a", "1"));
        assertThat(iterator.hasNext()).isFalse();
        assertThatThrownBy(iterator::next).isInstanceOf(NoSuchElementException.class);
        iterator.close();
        assertThatThrownBy(iterator::hasNext).isInstanceOf(IllegalStateException.class).hasMessageContaining("closed");
    }

    @Test
    void aKeyThatIsAbsentHereButOwnedByAnotherInstanceIsMigratedToIt() {
        streams.store = FakeStores.proxy(ReadOnlyKeyValueStore.class, (proxy, method, args) -> null);
        streams.keyMetadata = new KeyQueryMetadata(FakeStreams.OTHER, Set.of(), 1);

        Throwable error = catchThrowable(() -> queries.store(KEY_VALUE, new StringSerializer()).get("alice"));

        assertThat(error).isInstanceOfSatisfying(StateStoreMigratedException.class,
                migrated -> assertThat(migrated.owner()).contains(FakeStreams.OTHER));
        assertThat(error.getMessage()).doesNotContain("alice");
    }

    @Test
    void aKeyThatIsAbsentAndOwnedHereIsNull() {
        streams.store = FakeStores.proxy(ReadOnlyKeyValueStore.class, (proxy, method, args) -> null);
        streams.keyMetadata = new KeyQueryMetadata(FakeStreams.SELF, Set.of(), 0);

        assertThat(queries.store(KEY_VALUE, new StringSerializer()).get("alice")).isNull();
        assertThat(queries.store(KEY_VALUE).get("alice")).as("without a key serializer, Kafka's answer").isNull();
    }

    @Test
    void anAbsentKeyWhileItsMetadataIsNotAvailableIsRetryable() {
        streams.store = FakeStores.proxy(ReadOnlyKeyValueStore.class, (proxy, method, args) -> null);
        streams.keyMetadata = KeyQueryMetadata.NOT_AVAILABLE;

        assertThatThrownBy(() -> queries.store(KEY_VALUE, new StringSerializer()).get("alice"))
                .isInstanceOf(StateStoreRetryableException.class);
    }

    @Test
    void theCallersOwnErrorsPassThroughUnchanged() {
        IllegalArgumentException badRange = new IllegalArgumentException("from is after to");
        streams.store = FakeStores.failing(ReadOnlyWindowStore.class, badRange);

        assertThatThrownBy(() -> queries.store(StoreQueryParameters.fromNameAndType(STORE,
                QueryableStoreTypes.<String, String>windowStore())).fetchAll(Instant.MAX, Instant.EPOCH))
                .isSameAs(badRange);
    }

    @Test
    void aFailedLookupIsClassified() {
        streams.storeError = new IllegalStateException("KafkaStreams is not running. State is NOT_RUNNING.");
        streams.state(KafkaStreams.State.NOT_RUNNING);

        assertThatThrownBy(() -> queries.store(KEY_VALUE)).isInstanceOf(StateStoreFailException.class)
                .hasCause(streams.storeError);
    }

    @Test
    void anIqv2QueryThrowsItsMostSevereClassifiedFailure() {
        StateQueryResult<String> result = new StateQueryResult<>();
        result.addResult(0, QueryResult.forResult("value"));
        result.addResult(1, QueryResult.forFailure(FailureReason.NOT_PRESENT, "not here"));
        streams.storeMetadata.clear();
        streams.hosts(FakeStreams.SELF, STORE, 0).hosts(FakeStreams.OTHER, STORE, 1);
        streams.query = request -> result;
        StateQueryRequest<String> request = StateQueryRequest.inStore(STORE).withQuery(KeyQuery.<String, String>withKey("k"));

        assertThat(catchThrowable(() -> queries.query(request))).isInstanceOfSatisfying(StateStoreMigratedException.class,
                migrated -> assertThat(migrated.owner()).contains(FakeStreams.OTHER));

        result.addResult(2, QueryResult.forFailure(FailureReason.NOT_UP_TO_BOUND, "behind"));
        assertThatThrownBy(() -> queries.query(request)).isInstanceOf(StateStoreRetryableException.class);

        result.addResult(3, QueryResult.forFailure(FailureReason.UNKNOWN_QUERY_TYPE, "no"));
        assertThatThrownBy(() -> queries.query(request)).isInstanceOf(StateStoreFailException.class);
    }

    @Test
    void anIqv2QueryWhoseEveryPartitionAnsweredReturnsTheResult() {
        StateQueryResult<String> result = new StateQueryResult<>();
        result.addResult(0, QueryResult.forResult("value"));
        streams.query = request -> result;

        assertThat(queries.query(StateQueryRequest.inStore(STORE).withQuery(KeyQuery.<String, String>withKey("k"))))
                .isSameAs(result);
    }

    private void serveAll(List<KeyValue<String, String>> entries) {
        streams.store = FakeStores.proxy(ReadOnlyKeyValueStore.class,
                (proxy, method, args) -> new FakeStores.ListIterator<>(entries));
    }

    private static List<Method> reads(Class<?> type) {
        return Arrays.stream(type.getMethods()).filter(m -> !Modifier.isStatic(m.getModifiers())).toList();
    }

    private static Throwable thrownBy(Object target, Method method) throws IllegalAccessException {
        try {
            method.invoke(target, FakeStores.argumentsFor(method));
            return null;
        } catch (InvocationTargetException e) {
            return e.getCause();
        }
    }
}
