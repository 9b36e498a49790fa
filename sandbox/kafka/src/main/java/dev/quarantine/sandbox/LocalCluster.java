package dev.quarantine.sandbox;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * JUnit 5 extension: the broker and Connect workers a test class shares, started before its first test and closed
 * after its last (workers first, then a broker of its own), so test classes do not write their own set-up and
 * teardown. The broker is the module's shared one ({@link LocalKafkaExtension}) or one of the class's own, for tests
 * that kill it or need other broker settings.
 *
 * <pre>{@code
 * class MyFaultsIT {
 *     @RegisterExtension
 *     static final LocalCluster cluster = LocalCluster.ownBroker(Map.of("auto.create.topics.enable", "true"))
 *             .withWorkers(1, kafka -> LocalConnect.create(kafka, pluginPath, classpath));
 *
 *     @Test
 *     void copies() { cluster.worker().createConnector(...); ... cluster.kafka().bootstrapServers() ... }
 * }
 * }</pre>
 */
public final class LocalCluster implements BeforeAllCallback, AfterAllCallback {

    private final Map<String, String> ownBrokerOverrides;
    private final List<Function<LocalKafka, LocalConnect>> workerFactories = new ArrayList<>();
    private final List<LocalConnect> workers = new ArrayList<>();
    private LocalKafka kafka;
    private LocalKafka ownBroker;

    private LocalCluster(Map<String, String> ownBrokerOverrides) {
        this.ownBrokerOverrides = ownBrokerOverrides;
    }

    /** Workers on the broker every test class of the test JVM shares (the one of {@link LocalKafkaExtension}). */
    public static LocalCluster sharedBroker() {
        return new LocalCluster(null);
    }

    /** A broker of the class's own with the sandbox defaults and {@code overrides}, closed after its last test. */
    public static LocalCluster ownBroker(Map<String, String> overrides) {
        return new LocalCluster(Map.copyOf(overrides));
    }

    /** Adds {@code count} workers, each made (not started) by {@code worker} and started in order before the tests. */
    public LocalCluster withWorkers(int count, Function<LocalKafka, LocalConnect> worker) {
        for (int i = 0; i < count; i++) {
            workerFactories.add(worker);
        }
        return this;
    }

    public LocalKafka kafka() {
        return kafka;
    }

    /** The first worker. */
    public LocalConnect worker() {
        return worker(0);
    }

    /** The worker added {@code index}-th (from 0). */
    public LocalConnect worker(int index) {
        return workers.get(index);
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        if (ownBrokerOverrides == null) {
            kafka = LocalKafkaExtension.sharedBroker();
        } else {
            ownBroker = LocalKafka.create(ownBrokerOverrides).start();
            kafka = ownBroker;
        }
        for (Function<LocalKafka, LocalConnect> factory : workerFactories) {
            LocalConnect worker = factory.apply(kafka);
            workers.add(worker);
            worker.start();
        }
    }

    /** Closes the workers (last started first), then a broker of the class's own; every close is tried. */
    @Override
    public void afterAll(ExtensionContext context) {
        List<AutoCloseable> closing = new ArrayList<>(workers);
        Collections.reverse(closing);
        if (ownBroker != null) {
            closing.add(ownBroker);
        }
        workers.clear();
        ownBroker = null;
        kafka = null;
        RuntimeException failure = null;
        for (AutoCloseable closeable : closing) {
            try {
                closeable.close();
            } catch (Exception e) {
                if (failure == null) {
                    failure = new IllegalStateException("could not close the test cluster", e);
                } else {
                    failure.addSuppressed(e);
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
    }
}
