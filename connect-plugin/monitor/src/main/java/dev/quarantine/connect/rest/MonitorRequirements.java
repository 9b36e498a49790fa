package dev.quarantine.connect.rest;

import java.util.Optional;

import org.apache.kafka.connect.rest.ConnectRestExtensionContext;

import dev.quarantine.txn.KafkaVersion;

/**
 * Whether the worker can run the monitor, decided before any class of Kafka Streams or JAX-RS is touched, so that a
 * worker that cannot still starts, with one clear reason:
 *
 * <pre>
 * worker's REST API       | kafka-streams in the worker           | answer
 * ------------------------+---------------------------------------+---------------------------------------------
 * javax.ws.rs (Connect 3) | any                                   | refused (501): needs Connect 4.0+
 * jakarta.ws.rs           | none                                  | refused (501): add the worker's own kafka-streams
 * jakarta.ws.rs           | older than 4.0                        | refused (501): needs kafka-streams 4.0+
 * jakarta.ws.rs           | newer than the worker's kafka-clients | refused (501): use the worker's own version
 * jakarta.ws.rs           | 4.0 or later, not newer than clients  | runs
 * </pre>
 * A version that cannot be read (no version file) is not held against the worker. A refused worker's
 * {@code /dead-letters} answers 501 with the reason through its own JAX-RS ({@link RefusalEndpoint}).
 *
 * <p>The plugin archive carries no kafka-streams: Connect loads {@code org.apache.kafka.*} from the worker first, so a
 * bundled copy would only ever run on a worker without one, on that worker's kafka-clients, which a kafka-streams of
 * another version does not fit.
 */
final class MonitorRequirements {

    static final String STREAMS_CLASS = "org.apache.kafka.streams.KafkaStreams";
    private static final String REMOVE = " Or remove " + DeadLetterRestExtension.class.getSimpleName()
            + " from rest.extension.classes.";

    /**
     * What the worker offers.
     *
     * @param kafkaVersion   the worker's Kafka version (its kafka-clients)
     * @param jakartaRest    whether its REST API is jakarta.ws.rs (Connect 4.0+) rather than javax.ws.rs
     * @param streamsVersion the version of the kafka-streams in its classpath, if it has one
     */
    record Worker(String kafkaVersion, boolean jakartaRest, Optional<String> streamsVersion) {

        /** The worker this code runs in, seen through {@code loader} (the plugin's, which delegates to the worker). */
        static Worker detect(ClassLoader loader) {
            return new Worker(KafkaVersion.stated(loader, KafkaVersion.CLIENTS_FILE).orElse("unknown"),
                    restApiIsJakarta(), streamsIn(loader));
        }
    }

    /** Why the monitor cannot run, and how to fix it. */
    record Refusal(String reason) {
    }

    private MonitorRequirements() {
    }

    /** Why the monitor cannot run on {@code worker}; empty when it can. */
    static Optional<Refusal> refusal(Worker worker) {
        if (!worker.jakartaRest()) {
            return refused("needs Kafka Connect 4.0 or later (jakarta.ws.rs); this worker runs Kafka "
                    + worker.kafkaVersion() + " (javax.ws.rs). Upgrade the worker to Kafka Connect 4.0 or later."
                    + REMOVE);
        }
        return streamsRefusal(worker);
    }

    private static Optional<Refusal> streamsRefusal(Worker worker) {
        if (worker.streamsVersion().isEmpty()) {
            return refused("needs kafka-streams in the worker's classpath, and this worker has none (the plugin"
                    + " archive does not bundle it). Add kafka-streams-" + worker.kafkaVersion() + ".jar (the"
                    + " worker's own Kafka version, as the libs/ folder of the Apache Kafka distribution has it) to"
                    + " the worker's classpath." + REMOVE);
        }
        Optional<KafkaVersion> parsed = KafkaVersion.parse(worker.streamsVersion().get());
        if (parsed.isEmpty()) {
            return Optional.empty();
        }
        KafkaVersion streams = parsed.get();
        if (streams.isBefore(4, 0)) {
            return refused("needs kafka-streams 4.0 or later; this worker's classpath has"
                    + " kafka-streams " + worker.streamsVersion().get() + ". Upgrade the worker to Kafka 4.0 or later."
                    + REMOVE);
        }
        if (KafkaVersion.parse(worker.kafkaVersion()).filter(streams::isAfter).isPresent()) {
            return refused("needs the worker's own version of kafka-streams; this worker runs kafka-clients "
                    + worker.kafkaVersion() + " with kafka-streams " + worker.streamsVersion().get() + ", which"
                    + " needs newer clients. Put kafka-streams-" + worker.kafkaVersion() + ".jar in the worker's"
                    + " classpath instead." + REMOVE);
        }
        return Optional.empty();
    }

    private static Optional<Refusal> refused(String reason) {
        return Optional.of(new Refusal(reason));
    }

    /**
     * Whether the worker's {@link ConnectRestExtensionContext#configurable()} is jakarta.ws.rs: the signature of
     * Connect's public extension API is the one fact that tells (Kafka 4.0 moved it from javax.ws.rs).
     */
    private static boolean restApiIsJakarta() {
        try {
            return ConnectRestExtensionContext.class.getMethod("configurable").getReturnType().getName()
                    .startsWith("jakarta.");
        } catch (NoSuchMethodException | LinkageError e) {
            return false;
        }
    }

    private static Optional<String> streamsIn(ClassLoader loader) {
        try {
            Class.forName(STREAMS_CLASS, false, loader);
        } catch (ClassNotFoundException | LinkageError e) {
            return Optional.empty();
        }
        return Optional.of(KafkaVersion.stated(loader, KafkaVersion.STREAMS_FILE).orElse("unknown"));
    }
}
