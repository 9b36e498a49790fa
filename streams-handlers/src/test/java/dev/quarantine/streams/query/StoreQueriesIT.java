package dev.quarantine.streams.query;

import static dev.quarantine.streams.query.QueryApp.MEMORY;
import static dev.quarantine.streams.query.QueryApp.MEMORY_STORE;
import static dev.quarantine.streams.query.QueryApp.ROCKS_STORE;
import static dev.quarantine.sandbox.Await.until;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.IntStream;

import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.QueryableStoreTypes;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import dev.quarantine.sandbox.LocalKafka;
import dev.quarantine.sandbox.LocalKafkaExtension;

/** StoreQueries against a real broker and a real two-instance Kafka Streams application. */
@ExtendWith(LocalKafkaExtension.class)
class StoreQueriesIT {

    private static final int KEYS = 40;
    private static final Duration SETTLE = Duration.ofSeconds(60);

    private final LocalKafka kafka;
    private final List<QueryApp> apps = new ArrayList<>();
    private final String applicationId = "store-queries-" + UUID.randomUUID();
    private final String topic = applicationId + "-input";
    @TempDir
    Path stateDirs;

    StoreQueriesIT(LocalKafka kafka) {
        this.kafka = kafka;
    }

    @AfterEach
    void closeInstances() {
        apps.forEach(QueryApp::close);
    }

    @Test
    void queriesDuringStartupAreRetryableAndTheRetryPolicyAnswersOnceTheInstanceRuns() {
        loadTopic();
        QueryApp app = newInstance("a");
        AtomicReference<Throwable> duringRebalance = new AtomicReference<>();
        app.streams.setStateListener((now, before) -> {
            if (before == KafkaStreams.State.CREATED && now == KafkaStreams.State.REBALANCING) {
                duringRebalance.set(readError(() -> app.queries.store(MEMORY_STORE).get("key-1")));
            }
        });

        assertThatThrownBy(() -> app.queries.store(MEMORY_STORE)).as("before start()")
                .isInstanceOf(StateStoreRetryableException.class);
        app.start();
        QueryOutcome<String> outcome = app.queries.retrying(SETTLE).call(() -> loaded(app.memoryStore(), "key-1"));

        assertThat(duringRebalance.get()).as("a read while the instance first rebalances")
                .isInstanceOf(StateStoreRetryableException.class);
        assertThat(outcome.isMigrated()).isFalse();
        assertThat(outcome.value()).isEqualTo("value-1");
        assertThat(outcome.attempts()).as("attempts until the instance ran and had the data").isGreaterThan(1);
        assertThat(app.streams.state()).isEqualTo(KafkaStreams.State.RUNNING);
    }

    @Test
    void unknownStoresStoresOfAnotherTypeAndClosedInstancesAreFatal() {
        loadTopic();
        QueryApp app = newInstance("a").start();
        ReadOnlyKeyValueStore<String, String> store = app.memoryStore();
        awaitLoaded(app);

        assertThatThrownBy(() -> app.queries.store(StoreQueryParameters.fromNameAndType("no-such-store",
                QueryableStoreTypes.keyValueStore()))).isInstanceOf(StateStoreFailException.class);
        assertThatThrownBy(() -> app.queries.store(StoreQueryParameters.fromNameAndType(MEMORY,
                QueryableStoreTypes.<String, String>windowStore())).fetch("key-1", 0L))
                .isInstanceOf(StateStoreFailException.class);

        app.close();

        assertThatThrownBy(() -> store.get("key-1")).as("a store obtained before close")
                .isInstanceOf(StateStoreFailException.class);
        assertThatThrownBy(() -> app.queries.store(MEMORY_STORE)).as("a lookup after close")
                .isInstanceOf(StateStoreFailException.class);
        assertThatThrownBy(() -> app.queries.retrying(SETTLE).call(() -> store.get("key-1")))
                .as("the retry policy gives up at once").isInstanceOf(StateStoreFailException.class);
    }

    @Test
    void whileASecondInstanceJoinsReadsAreRetryableOrMigratedNeverRawAndKeysEndUpMigratedToTheirOwner() {
        loadTopic();
        QueryApp a = newInstance("a").start();
        awaitLoaded(a);
        KeyValueIterator<String, String> memoryIterator = openAndStep(a.queries.store(MEMORY_STORE));
        KeyValueIterator<String, String> rocksIterator = openAndStep(a.queries.store(ROCKS_STORE));
        Reader reader = new Reader(a);
        Thread readerThread = new Thread(reader, "store-queries-it-reader");
        readerThread.start();

        QueryApp b = newInstance("b").start();
        awaitOnePartitionEach(a, b);
        // the reader must have met the move, or the checks below would hold over nothing
        until("the reader of " + a.host + " to meet keys migrated to " + b.host, SETTLE, () ->
                reader.classified.stream().anyMatch(StateStoreMigratedException.class::isInstance)
                        && reader.outcomes.stream().anyMatch(QueryOutcome::isMigrated));
        reader.stop(readerThread);

        assertThat(reader.raw).as("raw errors while the partitions moved").isEmpty();
        assertThat(reader.classified).as("errors while the partitions moved").isNotEmpty()
                .allMatch(e -> e instanceof StateStoreRetryableException || e instanceof StateStoreMigratedException);
        assertThat(reader.outcomes).as("retry-policy answers while the partitions moved")
                .anyMatch(QueryOutcome::isMigrated)
                .allSatisfy(o -> assertThat(o.isMigrated() ? o.owner().orElseThrow() : b.host).isEqualTo(b.host));
        assertThat(readError(() -> drain(memoryIterator))).as("in-memory iterator open across the rebalance")
                .isInstanceOfAny(StateStoreRetryableException.class, StateStoreMigratedException.class);
        assertThat(readError(() -> drain(rocksIterator))).as("RocksDB iterator open across the rebalance")
                .isInstanceOfAny(StateStoreRetryableException.class, StateStoreMigratedException.class);

        String keyOnB = keyOwnedBy(a, b);
        int partitionOfB = a.streams.queryMetadataForKey(MEMORY, keyOnB, new StringSerializer()).partition();
        assertThat(readError(() -> a.memoryStore().get(keyOnB))).as("a key owned by the other instance")
                .isInstanceOfSatisfying(StateStoreMigratedException.class, e -> assertThat(e.owner()).contains(b.host));
        assertThat(readError(() -> a.queries.store(MEMORY_STORE.withPartition(partitionOfB)).all()))
                .as("a partition hosted by the other instance")
                .isInstanceOfSatisfying(StateStoreMigratedException.class, e -> assertThat(e.owner()).contains(b.host));
        QueryOutcome<String> fromA = a.queries.retrying(SETTLE).call(() -> a.memoryStore().get(keyOnB));
        QueryOutcome<String> fromB = b.queries.retrying(SETTLE).call(() -> loaded(b.memoryStore(), keyOnB));
        assertThat(fromA.owner()).contains(b.host);
        assertThat(fromB.value()).isEqualTo("value-" + keyOnB.substring("key-".length()));
    }

    private QueryApp newInstance(String name) {
        QueryApp app = new QueryApp(kafka, applicationId, topic, stateDirs.resolve(name));
        apps.add(app);
        return app;
    }

    private void loadTopic() {
        kafka.createTopic(topic, 2, Map.of());
        QueryApp.produce(kafka, topic, KEYS);
    }

    private static void awaitLoaded(QueryApp app) {
        until("all " + KEYS + " keys in both stores of " + app.host, SETTLE, () -> {
            try {
                return app.queries.store(MEMORY_STORE).approximateNumEntries() == KEYS
                        && app.queries.store(ROCKS_STORE).get("key-" + (KEYS - 1)) != null;
            } catch (StateStoreRetryableException e) {
                return false;
            }
        });
    }

    private static void awaitOnePartitionEach(QueryApp a, QueryApp b) {
        until("both instances RUNNING with one partition each, as the metadata of both says", SETTLE, () ->
                a.streams.state() == KafkaStreams.State.RUNNING && b.streams.state() == KafkaStreams.State.RUNNING
                        && a.activeTasks() == 1 && b.activeTasks() == 1
                        && hostsOnePartitionEach(a) && hostsOnePartitionEach(b));
    }

    private static boolean hostsOnePartitionEach(QueryApp app) {
        return app.streams.streamsMetadataForStore(MEMORY).stream()
                .filter(m -> m.topicPartitions().size() == 1).count() == 2;
    }

    private static String keyOwnedBy(QueryApp asker, QueryApp owner) {
        return IntStream.range(0, KEYS).mapToObj(i -> "key-" + i)
                .filter(k -> asker.streams.queryMetadataForKey(MEMORY, k, new StringSerializer()).activeHost().equals(owner.host))
                .findFirst().orElseThrow(() -> new AssertionError("no key is owned by " + owner.host));
    }

    /** The value, or a retryable error while it has not arrived yet: a read the retry policy can wait for. */
    private static String loaded(ReadOnlyKeyValueStore<String, String> store, String key) {
        String value = store.get(key);
        if (value == null) {
            throw new StateStoreRetryableException("not loaded yet", null);
        }
        return value;
    }

    private static KeyValueIterator<String, String> openAndStep(ReadOnlyKeyValueStore<String, String> store) {
        KeyValueIterator<String, String> iterator = store.all();
        assertThat(iterator.next()).isNotNull();
        return iterator;
    }

    private static void drain(KeyValueIterator<String, String> iterator) {
        try (iterator) {
            while (iterator.hasNext()) {
                iterator.next();
            }
        }
    }

    private static Throwable readError(Runnable read) {
        try {
            read.run();
            return null;
        } catch (RuntimeException e) {
            return e;
        }
    }

    /** Reads every key from one instance, plain and through the retry policy, until stopped; records what failed. */
    private static final class Reader implements Runnable {
        private final QueryApp app;
        private final AtomicBoolean running = new AtomicBoolean(true);
        final List<Throwable> classified = new CopyOnWriteArrayList<>();
        final List<Throwable> raw = new CopyOnWriteArrayList<>();
        final List<QueryOutcome<String>> outcomes = new CopyOnWriteArrayList<>();

        Reader(QueryApp app) {
            this.app = app;
        }

        @Override
        public void run() {
            while (running.get()) {
                for (int i = 0; i < KEYS && running.get(); i++) {
                    String key = "key-" + i;
                    record(() -> app.memoryStore().get(key));
                    record(() -> drain(app.queries.store(QueryApp.ROCKS_STORE).all()));
                    record(() -> outcomes.add(app.queries.retrying(SETTLE).call(() -> app.memoryStore().get(key))));
                }
            }
        }

        private void record(Runnable read) {
            Throwable error = readError(read);
            if (error instanceof StateStoreRetryableException || error instanceof StateStoreMigratedException
                    || error instanceof StateStoreFailException) {
                classified.add(error);
            } else if (error != null) {
                raw.add(error);
            }
        }

        void stop(Thread thread) {
            running.set(false);
            until("the reader to stop", SETTLE, () -> !thread.isAlive());
        }
    }
}
