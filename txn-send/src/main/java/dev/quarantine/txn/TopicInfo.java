package dev.quarantine.txn;

import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * What the up-front checks need to know about a topic, from the cluster's metadata and the topic's configuration.
 * Config-derived fields are empty when the topic's configuration could not be read.
 *
 * @param exists           whether the topic exists
 * @param partitions       number of partitions (0 when it does not exist)
 * @param maxMessageBytes  the topic's {@code max.message.bytes}
 * @param compacted        whether {@code cleanup.policy} includes {@code compact}
 * @param createTime       whether {@code message.timestamp.type} is CreateTime (timestamps are checked then)
 * @param beforeMaxMs      {@code message.timestamp.before.max.ms}
 * @param afterMaxMs       {@code message.timestamp.after.max.ms}
 */
record TopicInfo(boolean exists, int partitions, OptionalInt maxMessageBytes, boolean compacted, boolean createTime,
                 OptionalLong beforeMaxMs, OptionalLong afterMaxMs) {

    static TopicInfo missing() {
        return new TopicInfo(false, 0, OptionalInt.empty(), false, false, OptionalLong.empty(), OptionalLong.empty());
    }

    static TopicInfo withoutConfigs(int partitions) {
        return new TopicInfo(true, partitions, OptionalInt.empty(), false, false, OptionalLong.empty(),
                OptionalLong.empty());
    }
}
