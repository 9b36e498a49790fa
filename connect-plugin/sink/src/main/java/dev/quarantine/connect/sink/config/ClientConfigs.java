package dev.quarantine.connect.sink.config;

import java.util.HashMap;
import java.util.Map;

import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.AdminClientConfig;

/**
 * The configs of the clients the connector builds, from its settings: the target cluster's producer
 * ({@code target.producer.*}) and admin client ({@code target.admin.*}), each over {@code target.bootstrap.servers},
 * and the source cluster's admin client (the admin settings among {@code consumer.override.*}, when they name the
 * source cluster). Each call answers a new map the caller may change.
 */
final class ClientConfigs {

    private ClientConfigs() {
    }

    /** See {@link TransactionalSinkConfig#producerConfigs()}. */
    static Map<String, Object> targetProducer(TransactionalSinkConfig config) {
        return overTargetServers(config, TransactionalSinkConfig.TARGET_PRODUCER_PREFIX);
    }

    /** See {@link TransactionalSinkConfig#adminConfigs()}. */
    static Map<String, Object> targetAdmin(TransactionalSinkConfig config) {
        return overTargetServers(config, TransactionalSinkConfig.TARGET_ADMIN_PREFIX);
    }

    /** See {@link TransactionalSinkConfig#sourceAdminConfigs()}. */
    static Map<String, Object> sourceAdmin(TransactionalSinkConfig config) {
        Map<String, Object> overrides = new HashMap<>();
        config.originalsWithPrefix(ConfigRules.CONSUMER_OVERRIDE_PREFIX).forEach((name, value) -> {
            if (AdminClientConfig.configNames().contains(name)) {
                overrides.put(name, value);
            }
        });
        return overrides.containsKey(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG) ? overrides : targetAdmin(config);
    }

    /** The settings under {@code prefix}, over the target cluster's bootstrap servers. */
    private static Map<String, Object> overTargetServers(TransactionalSinkConfig config, String prefix) {
        Map<String, Object> configs = new HashMap<>();
        configs.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, config.targetBootstrapServers());
        configs.putAll(config.originalsWithPrefix(prefix));
        return configs;
    }
}
