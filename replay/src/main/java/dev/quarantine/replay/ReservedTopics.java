package dev.quarantine.replay;

import java.util.List;
import java.util.Optional;

/**
 * Topic names reserved whatever any setting says: the one place that knows them, used by the replay's destination
 * rule ({@link DestinationRule}) and by the monitor for the topics a share group's config names. The first row that
 * matches decides:
 *
 * <table>
 * <caption>Reserved topic names</caption>
 * <tr><th>topic</th><th>kind</th></tr>
 * <tr><td>internal by Kafka's naming convention: its name starts with {@code __} ({@code __consumer_offsets},
 *     {@code __transaction_state}, ...) or ends with {@code .internal} (MirrorMaker 2's internal topics, the
 *     exactly-once sink's {@code <connector>.progress.internal})</td><td>{@link Kind#INTERNAL}</td></tr>
 * <tr><td>a replay progress topic ({@code quarantine-replay-progress*}) or parking topic ({@code *.parking})</td>
 *     <td>{@link Kind#REPLAYS_OWN}</td></tr>
 * <tr><td>Kafka Connect's default config, offset and status topics ({@code connect-configs},
 *     {@code connect-offsets}, {@code connect-status})</td><td>{@link Kind#CONNECT_DEFAULT}</td></tr>
 * </table>
 */
public final class ReservedTopics {

    /** Why a name is reserved. */
    public enum Kind {
        INTERNAL("is a Kafka-internal topic"),
        REPLAYS_OWN("is a replay's progress or parking topic"),
        CONNECT_DEFAULT("is one of Kafka Connect's default config, offset and status topics");

        private final String reason;

        Kind(String reason) {
            this.reason = reason;
        }

        /** Why the topic is reserved, without naming it. */
        public String reason() {
            return reason;
        }
    }

    private static final String INTERNAL_PREFIX = "__";
    /** Kafka's convention for internal topics besides {@code __} (MirrorMaker 2's ReplicationPolicy, our sink). */
    private static final String INTERNAL_SUFFIX = ".internal";
    /** Kafka Connect's default config.storage.topic, offset.storage.topic and status.storage.topic. */
    static final List<String> CONNECT_DEFAULT_TOPICS = List.of("connect-configs", "connect-offsets", "connect-status");

    private ReservedTopics() {
    }

    /** The kind of reserved name {@code topic} is, by the table above; empty when it is none. */
    public static Optional<Kind> of(String topic) {
        if (topic.startsWith(INTERNAL_PREFIX) || topic.endsWith(INTERNAL_SUFFIX)) {
            return Optional.of(Kind.INTERNAL);
        }
        if (topic.startsWith(ReplayConfig.PROGRESS_TOPIC_PREFIX) || topic.endsWith(ReplayConfig.PARKING_SUFFIX)) {
            return Optional.of(Kind.REPLAYS_OWN);
        }
        if (CONNECT_DEFAULT_TOPICS.contains(topic)) {
            return Optional.of(Kind.CONNECT_DEFAULT);
        }
        return Optional.empty();
    }
}
