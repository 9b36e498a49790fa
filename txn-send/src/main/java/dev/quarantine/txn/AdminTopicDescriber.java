package dev.quarantine.txn;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** {@link TopicDescriber} on an {@link Admin} client, created on first use from the producer's configs. */
final class AdminTopicDescriber implements TopicDescriber {

    private static final Logger log = LoggerFactory.getLogger(AdminTopicDescriber.class);

    private final Supplier<Admin> adminFactory;
    private final Set<String> configsUnreadable = ConcurrentHashMap.newKeySet();
    private Admin admin;
    private boolean closed;

    AdminTopicDescriber(Supplier<Admin> adminFactory) {
        this.adminFactory = adminFactory;
    }

    /**
     * Over an admin client built, on first use, from the admin client settings among the producer {@code configs},
     * with client id {@code <client id>-txn-send-admin}.
     */
    static AdminTopicDescriber fromProducerConfigs(Map<String, ?> configs, TxnSendConfig config) {
        Map<String, Object> admin = new HashMap<>();
        configs.forEach((key, value) -> {
            if (AdminClientConfig.configNames().contains(key)) {
                admin.put(key, value);
            }
        });
        admin.put(AdminClientConfig.CLIENT_ID_CONFIG, config.clientId() + "-txn-send-admin");
        return new AdminTopicDescriber(() -> Admin.create(admin));
    }

    @Override
    public CompletableFuture<TopicInfo> describe(String topic) {
        CompletableFuture<TopicDescription> description =
                stage(admin().describeTopics(List.of(topic)).topicNameValues().get(topic));
        return description
                .thenCompose(d -> topicConfig(topic).thenApply(config -> toInfo(d, config)))
                .exceptionallyCompose(error -> SendErrors.unwrap(error) instanceof UnknownTopicOrPartitionException
                        ? CompletableFuture.completedFuture(TopicInfo.missing())
                        : CompletableFuture.failedFuture(SendErrors.unwrap(error)));
    }

    @Override
    public CompletableFuture<Boolean> autoCreateEnabled() {
        return stage(admin().describeCluster().nodes()).thenCompose(nodes -> {
            ConfigResource broker = new ConfigResource(ConfigResource.Type.BROKER,
                    String.valueOf(nodes.iterator().next().id()));
            return stage(admin().describeConfigs(List.of(broker)).values().get(broker))
                    .thenApply(config -> Boolean.parseBoolean(value(config, "auto.create.topics.enable", "true")));
        }).exceptionally(error -> {
            log.warn("Could not read auto.create.topics.enable of the brokers ({}); treating missing topics as"
                    + " missing", SendErrors.unwrap(error).toString());
            return false;
        });
    }

    /** Closes the admin client, if one was created; describing afterwards throws IllegalStateException. */
    @Override
    public void close() {
        Admin a;
        synchronized (this) {
            closed = true;
            a = admin;
        }
        if (a != null) {
            a.close(Duration.ZERO);
        }
    }

    private CompletableFuture<Config> topicConfig(String topic) {
        ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, topic);
        return stage(admin().describeConfigs(List.of(resource)).values().get(resource))
                .exceptionallyCompose(error -> {
                    Throwable cause = SendErrors.unwrap(error);
                    if (!(cause instanceof AuthorizationException)) {
                        return CompletableFuture.failedFuture(cause);
                    }
                    if (configsUnreadable.add(topic)) {
                        log.warn("Not allowed to describe the configuration of topic {} (grant DescribeConfigs on it):"
                                + " its max.message.bytes, cleanup.policy and timestamp limits are not checked up front,"
                                + " so a record breaking them fails the transaction", topic);
                    }
                    return CompletableFuture.completedFuture(null);
                });
    }

    private static TopicInfo toInfo(TopicDescription description, Config config) {
        int partitions = description.partitions().size();
        if (config == null) {
            return TopicInfo.withoutConfigs(partitions);
        }
        String policy = value(config, TopicConfig.CLEANUP_POLICY_CONFIG, "delete");
        boolean createTime = "CreateTime".equalsIgnoreCase(value(config, TopicConfig.MESSAGE_TIMESTAMP_TYPE_CONFIG,
                "CreateTime"));
        return new TopicInfo(true, partitions,
                OptionalInt.of(Integer.parseInt(value(config, TopicConfig.MAX_MESSAGE_BYTES_CONFIG, "1048588"))),
                policy.contains(TopicConfig.CLEANUP_POLICY_COMPACT), createTime,
                longValue(config, TopicConfig.MESSAGE_TIMESTAMP_BEFORE_MAX_MS_CONFIG),
                longValue(config, TopicConfig.MESSAGE_TIMESTAMP_AFTER_MAX_MS_CONFIG));
    }

    private static String value(Config config, String name, String fallback) {
        ConfigEntry entry = config.get(name);
        return entry == null || entry.value() == null ? fallback : entry.value();
    }

    private static OptionalLong longValue(Config config, String name) {
        ConfigEntry entry = config.get(name);
        return entry == null || entry.value() == null ? OptionalLong.empty()
                : OptionalLong.of(Long.parseLong(entry.value()));
    }

    private synchronized Admin admin() {
        if (closed) {
            throw new IllegalStateException("The admin client that reads topic metadata for the up-front checks"
                    + " has been closed");
        }
        if (admin == null) {
            admin = adminFactory.get();
        }
        return admin;
    }

    private static <T> CompletableFuture<T> stage(KafkaFuture<T> future) {
        return future.toCompletionStage().toCompletableFuture();
    }
}
