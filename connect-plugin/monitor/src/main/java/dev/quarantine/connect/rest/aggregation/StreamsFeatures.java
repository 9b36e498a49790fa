package dev.quarantine.connect.rest.aggregation;

import java.time.Duration;
import java.util.Properties;

import org.apache.kafka.streams.CloseOptions;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;

/**
 * What the monitor uses of Kafka Streams newer than 4.0, the oldest it runs on (the worker's own kafka-streams), used
 * only where present:
 * <ul>
 *   <li>{@code CloseOptions} (4.2+): a closing run leaves its group at once; before, {@code close(Duration)}, and the
 *       group forgets the member after its session timeout (Kafka Streams' own default on close);</li>
 *   <li>a setting is passed only when the worker's {@link StreamsConfig} knows it (an unknown one would only be
 *       warned about, but says nothing true).</li>
 * </ul>
 */
final class StreamsFeatures {

    static final boolean LEAVES_GROUP_ON_CLOSE = present("org.apache.kafka.streams.CloseOptions");

    private StreamsFeatures() {
    }

    static void close(KafkaStreams streams, Duration timeout) {
        if (LEAVES_GROUP_ON_CLOSE) {
            LeavingGroup.close(streams, timeout);
        } else {
            streams.close(timeout);
        }
    }

    static void putIfKnown(Properties props, String key, Object value) {
        if (StreamsConfig.configDef().names().contains(key)) {
            props.put(key, value);
        }
    }

    private static boolean present(String className) {
        try {
            Class.forName(className, false, StreamsFeatures.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }

    /** Loaded only on Kafka Streams 4.2+, where its classes exist. */
    private static final class LeavingGroup {

        static void close(KafkaStreams streams, Duration timeout) {
            streams.close(CloseOptions.timeout(timeout)
                    .withGroupMembershipOperation(CloseOptions.GroupMembershipOperation.LEAVE_GROUP));
        }
    }
}
