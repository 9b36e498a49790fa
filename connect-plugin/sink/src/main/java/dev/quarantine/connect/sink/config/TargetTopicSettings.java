package dev.quarantine.connect.sink.config;

import java.util.Map;
import java.util.Optional;

/**
 * The {@code target.topic.creation.*} settings and {@code target.partition.mapping}.
 *
 * @param create            whether a missing target topic is created before anything is sent to it
 * @param partitions        partitions of a created topic; empty means as many as its source topic
 * @param replicationFactor replication factor of a created topic; empty means the target cluster's default
 * @param topicConfigs      topic configs of a created topic
 * @param mapping           the target partition of a record whose partition the target topic does not have
 */
public record TargetTopicSettings(boolean create, Optional<Integer> partitions, Optional<Short> replicationFactor,
                           Map<String, String> topicConfigs, PartitionMapping mapping) {
}
