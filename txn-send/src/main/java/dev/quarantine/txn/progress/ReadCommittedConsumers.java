package dev.quarantine.txn.progress;

import java.util.HashMap;
import java.util.Map;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.common.IsolationLevel;

/**
 * The settings of a consumer that reads what transactions committed, positioned by its owner: read_committed,
 * without a group (assigned, never committing), never creating a topic. Used by {@link CompactedTopicReader} and by
 * the sink's look at where a committed transaction's records went.
 */
public final class ReadCommittedConsumers {

    private ReadCommittedConsumers() {
    }

    /**
     * {@code clientConfigs}' consumer settings ({@code bootstrap.servers}, security, {@code client.id}; others are
     * left out) with the settings above; {@code auto.offset.reset} is {@code earliest}.
     */
    public static Map<String, Object> configs(Map<String, Object> clientConfigs) {
        Map<String, Object> configs = new HashMap<>(clientConfigs);
        configs.keySet().retainAll(ConsumerConfig.configNames());
        configs.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, IsolationLevel.READ_COMMITTED.toString());
        configs.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        configs.put(ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, false);
        configs.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        configs.remove(ConsumerConfig.GROUP_ID_CONFIG);
        return configs;
    }
}
