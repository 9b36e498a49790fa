package dev.quarantine.connect.rest.aggregation;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import java.util.stream.Stream;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse;

import dev.quarantine.streams.BoundedCloseClientSupplier;
import dev.quarantine.streams.query.StoreQueries;
import dev.quarantine.connect.rest.MonitorConfig;
import dev.quarantine.connect.rest.discovery.MonitoredTopics;
import dev.quarantine.connect.rest.WorkerSettings;

/**
 * One run of the embedded Kafka Streams aggregation over a fixed set of topics, with its {@link StoreQueries}. A new
 * set of topics means a new run (Kafka Streams cannot change its subscription while running); the figures carry over
 * in the changelog topics. Its clients are {@link BoundedCloseClientSupplier}'s: a stream thread that failed lets go of
 * its tasks within a bounded time.
 */
public final class MonitorStreams implements AutoCloseable {

    /** The aggregation's producer's max.block.ms unless quarantine.monitor.streams.* sets it. */
    static final int MAX_BLOCK_MS = 15_000;

    static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(20);

    private final KafkaStreams streams;
    private final StoreQueries queries;
    private final MonitoredTopics topics;
    private final Path stateDir;
    private final AtomicReference<Throwable> stoppedBy;

    private MonitorStreams(KafkaStreams streams, StoreQueries queries, MonitoredTopics topics, Path stateDir,
                           AtomicReference<Throwable> stoppedBy) {
        this.streams = streams;
        this.queries = queries;
        this.topics = topics;
        this.stateDir = stateDir;
        this.stoppedBy = stoppedBy;
    }

    /** Builds and starts (without waiting) an aggregation of {@code topics}. */
    static MonitorStreams start(MonitorConfig config, WorkerSettings worker, MonitoredTopics topics,
                                Supplier<MonitoredTopics> current) {
        String applicationId = applicationId(worker, topics);
        Path stateDir = tempDir(applicationId);
        Thread thread = Thread.currentThread();
        ClassLoader previous = thread.getContextClassLoader();
        // stream threads inherit this loader: the plugin's, which sees Kafka Streams whether or not the worker has it
        thread.setContextClassLoader(MonitorStreams.class.getClassLoader());
        try {
            KafkaStreams streams = new KafkaStreams(MonitorTopology.build(topics, MonitorTopology.Limits.of(config),
                    current),
                    properties(config, worker, applicationId, stateDir), new BoundedCloseClientSupplier());
            // a new thread for what a thread met; but an Error (a linkage error) would meet every new thread too: the
            // run stops, keeping the Error for the monitor's next round to say (Kafka Streams logs it at ERROR)
            AtomicReference<Throwable> stoppedBy = new AtomicReference<>();
            streams.setUncaughtExceptionHandler(error -> {
                Optional<IllegalStateException> misfit = ChangelogMisfit.of(applicationId, error);
                if (misfit.isPresent()) { // every new thread would meet it too: the run stops, the next round says why
                    stoppedBy.compareAndSet(null, misfit.get());
                    return StreamThreadExceptionResponse.SHUTDOWN_CLIENT;
                }
                if (error instanceof Exception) {
                    return StreamThreadExceptionResponse.REPLACE_THREAD;
                }
                stoppedBy.compareAndSet(null, error);
                return StreamThreadExceptionResponse.SHUTDOWN_CLIENT;
            });
            streams.start();
            return new MonitorStreams(streams, StoreQueries.of(streams, worker.self()), topics, stateDir, stoppedBy);
        } catch (RuntimeException e) {
            deleteQuietly(stateDir);
            throw e;
        } finally {
            thread.setContextClassLoader(previous);
        }
    }

    /** The worker's base application.id and the digest of the topics: one aggregation per set of topics. */
    static String applicationId(WorkerSettings worker, MonitoredTopics topics) {
        return worker.applicationId() + "-" + topics.fingerprint();
    }

    /**
     * The admin client settings of this worker's aggregation (the worker's client settings and
     * {@code quarantine.monitor.streams.*}, as Kafka Streams derives them), for other reads of the cluster it reads,
     * which must see the topics it sees.
     */
    public static Map<String, Object> adminConfigs(MonitorConfig config, WorkerSettings worker) {
        String clientId = worker.applicationId() + "-" + worker.self().port() + "-topics";
        return new StreamsConfig(properties(config, worker, worker.applicationId(), Path.of("unused")))
                .getAdminConfigs(clientId);
    }

    static Properties properties(MonitorConfig config, WorkerSettings worker, String applicationId, Path stateDir) {
        Properties props = new Properties();
        props.putAll(worker.clientConfigs());
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, applicationId);
        props.put(StreamsConfig.APPLICATION_SERVER_CONFIG, worker.self().host() + ":" + worker.self().port());
        props.put(StreamsConfig.CLIENT_ID_CONFIG, applicationId + "-" + worker.self().port());
        StreamsFeatures.putIfKnown(props, StreamsConfig.PROCESSING_EXCEPTION_HANDLER_GLOBAL_ENABLED_CONFIG, true);
        // what a record's content made fail in the processor (it marks it) is skipped, logged by its position, rather
        // than retried for ever by a replaced thread; anything else fails the stream thread (a new one reads again
        // from the last commit, nothing is skipped): RecordFaultsOnly
        props.put(StreamsConfig.PROCESSING_EXCEPTION_HANDLER_CLASS_CONFIG, RecordFaultsOnly.class);
        // read_committed, and counts that stay exact across crashes: a dead letter of an aborted transaction is
        // never counted, a committed one exactly once
        props.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
        props.put(StreamsConfig.NUM_STREAM_THREADS_CONFIG, 1);
        props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        props.put(StreamsConfig.DEFAULT_KEY_SERDE_CLASS_CONFIG, Serdes.ByteArraySerde.class);
        props.put(StreamsConfig.DEFAULT_VALUE_SERDE_CLASS_CONFIG, Serdes.ByteArraySerde.class);
        // new topics matching the subscription are found at the next metadata refresh
        props.put(StreamsConfig.consumerPrefix(ConsumerConfig.METADATA_MAX_AGE_CONFIG), 30_000);
        // a commit that cannot complete (its offsets of a DLQ topic deleted meanwhile, a coordinator away) fails the
        // task after this, not Kafka's 60 s per call: the aggregation is rebuilt from the DLQs and answers 503
        // meanwhile, so a long wait only prolongs the 503s (two such calls held one run for 2 minutes)
        props.put(StreamsConfig.producerPrefix(ProducerConfig.MAX_BLOCK_MS_CONFIG), MAX_BLOCK_MS);
        props.putAll(config.streamsOverrides());
        return props;
    }

    public KafkaStreams streams() {
        return streams;
    }

    public StoreQueries queries() {
        return queries;
    }

    public MonitoredTopics topics() {
        return topics;
    }

    /** The Error a stream thread met, which stopped this run; empty while it runs, or when it stopped otherwise. */
    Optional<Throwable> stoppedBy() {
        return Optional.ofNullable(stoppedBy.get());
    }

    boolean isRunning() {
        return streams.state() == KafkaStreams.State.RUNNING;
    }

    /** Whether this run has stopped for good (a fatal error): it should be replaced. */
    boolean hasFailed() {
        KafkaStreams.State state = streams.state();
        return state == KafkaStreams.State.ERROR || state == KafkaStreams.State.NOT_RUNNING
                || state == KafkaStreams.State.PENDING_ERROR;
    }

    @Override
    public void close() {
        try {
            StreamsFeatures.close(streams, CLOSE_TIMEOUT);
        } finally {
            deleteQuietly(stateDir);
        }
    }

    private static Path tempDir(String applicationId) {
        try {
            return Files.createTempDirectory("quarantine-monitor-" + applicationId.replaceAll("[^A-Za-z0-9._-]", "_"));
        } catch (IOException e) {
            throw new UncheckedIOException("could not create a state directory for the dead-letter monitor", e);
        }
    }

    private static void deleteQuietly(Path dir) {
        try (Stream<Path> paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // best effort: a temporary directory
        }
    }
}
