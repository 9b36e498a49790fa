package dev.quarantine.connect.rest.aggregation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.processor.StateStore;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;
import org.junit.jupiter.api.Test;

import dev.quarantine.connect.rest.discovery.MonitoredTopics;

/**
 * What {@link DeadLetterProcessor} marks as a record's failure ({@link RecordFault}, which {@link RecordFaultsOnly}
 * skips) and what it leaves unmarked (a store's failure, Kafka's: the stream thread fails, nothing is skipped).
 */
class DeadLetterProcessorFaultsTest {

    private static final MonitoredTopics TOPICS = new MonitoredTopics(Map.of(), List.of("dlq"), Optional.empty());
    private static final byte[] SECRET_VALUE = "card 4111-1111".getBytes();
    private static final long NOW = 1_764_000_000_000L;

    @Test
    void aFailureOfOurCodeOnARecordIsMarkedAsTheRecordsNamingItsPositionNotItsContent() {
        IllegalArgumentException ours = new IllegalArgumentException("from our code");
        DeadLetterProcessor processor = processor(() -> {
            throw ours;
        }, false);

        Throwable thrown = catchThrowable(() -> processor.process(new Record<>(null, SECRET_VALUE, NOW)));

        assertThat(thrown).isInstanceOf(RecordFault.class).hasCause(ours)
                .hasMessageContaining("dlq-0@7").hasMessageNotContaining("4111");
        assertThat(RecordFaultsOnly.causedByRecord(thrown)).isTrue();
    }

    @Test
    void aStoresFailureIsLeftUnmarkedSoTheThreadFailsAndNothingIsSkipped() {
        DeadLetterProcessor processor = processor(() -> TOPICS, true);

        Throwable thrown = catchThrowable(() -> processor.process(new Record<>(null, SECRET_VALUE, NOW)));

        assertThat(thrown).isInstanceOf(IllegalStateException.class).hasMessageContaining("must be retried");
        assertThat(RecordFaultsOnly.causedByRecord(thrown)).isFalse();
    }

    @Test
    void aRecordIsCountedWhenNothingFails() {
        MockProcessorContext<Void, Void> context = new MockProcessorContext<>();
        DeadLetterProcessor processor = processor(context, () -> TOPICS, store -> store);

        processor.process(new Record<>(null, SECRET_VALUE, NOW));

        KeyValueStore<String, TopicStats> stats = context.getStateStore(MonitorTopology.STATS_STORE);
        assertThat(stats.get("dlq").total()).isEqualTo(1);
    }

    @Test
    void storedFiguresThatDoNotDecodeAreReplacedNotEveryLaterLetterSkipped() {
        MockProcessorContext<Void, Void> context = new MockProcessorContext<>();
        List<String> written = new ArrayList<>();
        DeadLetterProcessor processor = processor(context, () -> TOPICS, store -> failing(store, "get",
                new SerializationException("not a stats value"), written));

        processor.process(new Record<>(null, SECRET_VALUE, NOW));
        processor.process(new Record<>(null, SECRET_VALUE, NOW));

        assertThat(written).as("the figures written, counting again from the first letter").containsExactly("dlq",
                "dlq");
    }

    private static DeadLetterProcessor processor(Supplier<MonitoredTopics> topics, boolean statsPutFails) {
        return processor(new MockProcessorContext<>(), topics, statsPutFails ? PUT_FAILS : store -> store);
    }

    private static DeadLetterProcessor processor(MockProcessorContext<Void, Void> context,
                                                 Supplier<MonitoredTopics> topics,
                                                 UnaryOperator<KeyValueStore<String, TopicStats>> statsStore) {
        context.setRecordMetadata("dlq", 0, 7L);
        context.setCurrentSystemTimeMs(NOW);
        KeyValueStore<String, TopicStats> stats = Stores.keyValueStoreBuilder(
                Stores.inMemoryKeyValueStore(MonitorTopology.STATS_STORE), Serdes.String(), TopicStats.SERDE)
                .withLoggingDisabled().build();
        add(context, statsStore.apply(stats));
        add(context, Stores.windowStoreBuilder(Stores.inMemoryWindowStore(MonitorTopology.MINUTES_STORE,
                MonitorTopology.WINDOW_RETENTION, MonitorTopology.WINDOW, false), Serdes.String(), Serdes.Long())
                .withLoggingDisabled().build());
        add(context, Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore(MonitorTopology.RECENT_STORE),
                Serdes.String(), DeadLetterRecord.SERDE).withLoggingDisabled().build());
        DeadLetterProcessor processor = new DeadLetterProcessor(new MonitorTopology.Limits(10, false, 64, 10),
                topics);
        processor.init(context);
        return processor;
    }

    @SuppressWarnings("deprecation") // StateStore#init(StateStoreContext, StateStore): what MockProcessorContext takes
    private static void add(MockProcessorContext<Void, Void> context, StateStore store) {
        store.init(context.getStateStoreContext(), store);
        context.addStateStore(store);
    }

    private static final UnaryOperator<KeyValueStore<String, TopicStats>> PUT_FAILS = store -> failing(store, "put",
            new IllegalStateException("the previous call to commitTransaction timed out and must be retried"),
            new ArrayList<>());

    /**
     * {@code store}, whose calls of {@code method} throw {@code error} (a changelog send after a commit that timed out,
     * a value that does not decode), and whose writes' keys go to {@code written}.
     */
    @SuppressWarnings("unchecked")
    private static KeyValueStore<String, TopicStats> failing(KeyValueStore<String, TopicStats> store, String method,
                                                             RuntimeException error, List<String> written) {
        return (KeyValueStore<String, TopicStats>) Proxy.newProxyInstance(
                DeadLetterProcessorFaultsTest.class.getClassLoader(), new Class<?>[] {KeyValueStore.class},
                (proxy, called, args) -> {
                    if (called.getName().equals(method)) {
                        throw error;
                    }
                    if (called.getName().equals("put")) {
                        written.add((String) args[0]);
                    }
                    try {
                        return called.invoke(store, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }
}
