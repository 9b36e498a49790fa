package dev.quarantine.streams;

import java.lang.ref.WeakReference;
import java.util.Collections;
import java.util.Deque;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentLinkedDeque;

import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.TimeoutException;

import dev.quarantine.txn.DeadLetterBreaker;
import dev.quarantine.txn.ErrorClassMetrics;

/**
 * What the handler and the supplier of one Streams app share: its settings, parsed once; its dead-letter counts; its
 * breaker; and its live transactional producers, through which the handler reads the limits a dead letter must fit.
 *
 * <p>Kafka Streams configures the supplier (once per {@code KafkaStreams}) and the handler (once per task) separately,
 * and gives each the same thing: the app's configs ({@code StreamsConfig#originals()}). That is how they meet here:
 * equal configs find the same instance, never a thread's name. Two apps in one JVM differ in {@code application.id};
 * two instances of one app in one JVM differ in {@code state.dir} (Kafka Streams locks it for one instance), so each
 * has its own, unless they are configured identically, and then they share one breaker (docs/streams-handlers.md).
 * An instance closed and created again starts afresh ({@link #forSupplier}).
 * A supplier passed to {@code new KafkaStreams(topology, props, supplier)} is not configured by Kafka Streams:
 * without {@code configure(props)} on it, its producers are not found by the app's handlers.
 *
 * <p>Held weakly: once its supplier, handlers and producers are gone, the next look-up drops it.
 */
final class AppDeadLetters {

    private static final Map<Map<String, Object>, WeakReference<AppDeadLetters>> BY_CONFIGS = new HashMap<>();

    private final DeadLetterHandlerConfig config;
    private final ErrorClassMetrics metrics;
    private final DeadLetterBreaker breaker;
    private final StreamsTopics topics;
    /** The app's open producers, the newest first (a replaced stream thread's producer comes first). */
    private final Deque<StreamsTxnSendProducer> producers = new ConcurrentLinkedDeque<>();
    /** Whether a producer was ever opened: with none open any more, the {@code KafkaStreams} it served is closed. */
    private volatile boolean everOpened;

    private AppDeadLetters(DeadLetterHandlerConfig config) {
        this.config = config;
        this.metrics = DeadLetterMetrics.of(config.applicationId());
        this.breaker = config.breaker();
        this.topics = config.topics();
    }

    /**
     * The state of the app configured with {@code configs}, parsing them the first time.
     *
     * @throws org.apache.kafka.common.config.ConfigException naming the setting, for a bad value of ours
     */
    static synchronized AppDeadLetters of(Map<String, ?> configs) {
        BY_CONFIGS.values().removeIf(ref -> ref.get() == null);
        Map<String, Object> key = key(configs);
        WeakReference<AppDeadLetters> ref = BY_CONFIGS.get(key);
        AppDeadLetters app = ref == null ? null : ref.get();
        if (app == null) {
            app = new AppDeadLetters(new DeadLetterHandlerConfig(key));
            BY_CONFIGS.put(key, new WeakReference<>(app));
        }
        return app;
    }

    /**
     * The state for a supplier Kafka Streams configures with {@code configs}, that is for a new {@code KafkaStreams}:
     * as {@link #of}, except that state whose producers were all closed again (its {@code KafkaStreams} was closed) is
     * replaced by a fresh one. An app closed and created again in the same JVM ({@code close()}, then
     * {@code new KafkaStreams(topology, props)}, as after an operator fixed the cause that tripped its breaker) starts
     * with an empty breaker window, although the old instance (still referenced, holding its supplier) keeps the old
     * state alive. Handlers are configured after the supplier, when the new instance creates its tasks, so they find
     * the fresh state. Two instances with equal configs created before either starts still share one.
     */
    static synchronized AppDeadLetters forSupplier(Map<String, ?> configs) {
        AppDeadLetters app = of(configs);
        if (app.everOpened && app.producers.isEmpty()) {
            app = new AppDeadLetters(app.config);
            BY_CONFIGS.put(key(configs), new WeakReference<>(app));
        }
        return app;
    }

    /** The map equal configs are found by: a copy, so that later changes to the caller's map change nothing. */
    private static Map<String, Object> key(Map<String, ?> configs) {
        return Collections.unmodifiableMap(new HashMap<>(configs));
    }

    DeadLetterHandlerConfig config() {
        return config;
    }

    ErrorClassMetrics metrics() {
        return metrics;
    }

    StreamsTopics topics() {
        return topics;
    }

    /**
     * The breaker, while the supplier's producers count the app's written outputs: without them it would see only
     * dead letters, so there is none.
     */
    Optional<DeadLetterBreaker> breaker() {
        return producers.isEmpty() ? Optional.empty() : Optional.of(breaker);
    }

    /** The breaker the producers count written outputs in, whether or not a handler reads it. */
    DeadLetterBreaker outputCounter() {
        return breaker;
    }

    /**
     * The largest record the app's producers send to {@code topic} (see {@code TxnSendProducer#maxRecordBytes}), read
     * through the newest open one: they are all built from the app's producer configs, so they agree. Empty without
     * the supplier's producers.
     *
     * @throws org.apache.kafka.common.errors.TimeoutException when the topic's configuration could not be read in
     *                                                         time (retriable)
     */
    Optional<Integer> maxRecordBytes(String topic) {
        KafkaException closing = null;
        for (StreamsTxnSendProducer producer : producers) {
            try {
                return Optional.of(producer.maxRecordBytes(topic));
            } catch (IllegalStateException closedMeanwhile) { // closed after it was picked: ask the next one
                producers.remove(producer);
            } catch (TimeoutException retriable) {
                throw retriable;
            } catch (KafkaException e) { // another thread's producer closing during its look-up: ask the next one
                closing = e;
            }
        }
        if (closing != null) {
            throw closing;
        }
        return Optional.empty();
    }

    void opened(StreamsTxnSendProducer producer) {
        everOpened = true;
        producers.addFirst(producer);
    }

    void closed(StreamsTxnSendProducer producer) {
        producers.remove(producer);
    }
}
