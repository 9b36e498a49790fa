package dev.quarantine.txn;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.errors.InterruptException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Topic metadata and configuration for the up-front checks, fetched with an {@link Admin} client once per topic and
 * refreshed in the background when older than {@code maxAge}; never a describe call per record. A missing topic is
 * looked up again (synchronously) when its entry is older than a second, so a topic created meanwhile is found.
 */
final class TopicMetadataCache implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(TopicMetadataCache.class);
    private static final long RECHECK_NANOS = TimeUnit.SECONDS.toNanos(1);

    private final Supplier<Admin> adminFactory;
    private final long maxAgeNanos;
    private final Duration timeout;
    private final Map<String, Entry> entries = new ConcurrentHashMap<>();
    private final Set<String> configsUnreadable = ConcurrentHashMap.newKeySet();
    private volatile Admin admin;
    private volatile Boolean autoCreate;

    private record Entry(TopicInfo info, long fetchedAtNanos, AtomicBoolean refreshing) {
        Entry(TopicInfo info) {
            this(info, System.nanoTime(), new AtomicBoolean());
        }

        long ageNanos() {
            return System.nanoTime() - fetchedAtNanos;
        }
    }

    TopicMetadataCache(Supplier<Admin> adminFactory, Duration maxAge, Duration timeout) {
        this.adminFactory = adminFactory;
        this.maxAgeNanos = maxAge.toNanos();
        this.timeout = timeout;
    }

    /** What is known of {@code topic}; blocks only the first time, or when a missing topic is looked up again. */
    TopicInfo get(String topic) {
        Entry entry = entries.get(topic);
        if (entry == null || (!entry.info().exists() && entry.ageNanos() > RECHECK_NANOS)) {
            return fetchNow(topic);
        }
        if (entry.ageNanos() > maxAgeNanos && entry.refreshing().compareAndSet(false, true)) {
            refreshInBackground(topic, entry);
        }
        return entry.info();
    }

    /** Fetches {@code topic} again now unless its entry is younger than a second (partitions may have been added). */
    TopicInfo recheck(String topic) {
        Entry entry = entries.get(topic);
        return entry != null && entry.ageNanos() <= RECHECK_NANOS ? entry.info() : fetchNow(topic);
    }

    /** Whether the brokers create a missing topic on first use ({@code auto.create.topics.enable}). */
    boolean autoCreateEnabled() {
        Boolean known = autoCreate;
        if (known == null) {
            known = await(brokerAutoCreate(), "auto.create.topics.enable of the brokers");
            autoCreate = known;
        }
        return known;
    }

    @Override
    public void close() {
        Admin a = admin;
        if (a != null) {
            a.close(Duration.ZERO);
        }
    }

    private TopicInfo fetchNow(String topic) {
        TopicInfo info = await(fetch(topic), "topic " + topic);
        entries.put(topic, new Entry(info));
        return info;
    }

    private void refreshInBackground(String topic, Entry stale) {
        fetch(topic).whenComplete((info, error) -> {
            if (error == null) {
                entries.put(topic, new Entry(info));
            } else {
                log.warn("Could not refresh metadata of topic {}; using what was read {} s ago: {}", topic,
                        TimeUnit.NANOSECONDS.toSeconds(stale.ageNanos()), SendErrors.unwrap(error).toString());
                stale.refreshing().set(false);
            }
        });
    }

    private CompletableFuture<TopicInfo> fetch(String topic) {
        CompletableFuture<TopicDescription> description =
                stage(admin().describeTopics(List.of(topic)).topicNameValues().get(topic));
        return description
                .thenCompose(d -> topicConfig(topic).thenApply(config -> toInfo(d, config)))
                .exceptionallyCompose(error -> SendErrors.unwrap(error) instanceof UnknownTopicOrPartitionException
                        ? CompletableFuture.completedFuture(TopicInfo.missing())
                        : CompletableFuture.failedFuture(SendErrors.unwrap(error)));
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

    private CompletableFuture<Boolean> brokerAutoCreate() {
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

    private <T> T await(CompletableFuture<T> future, String what) {
        try {
            return future.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptException(e);
        } catch (java.util.concurrent.TimeoutException e) {
            throw new TimeoutException("Could not describe " + what + " within " + timeout.toMillis()
                    + " ms (max.block.ms)", e);
        } catch (ExecutionException e) {
            Throwable cause = SendErrors.unwrap(e);
            if (cause instanceof KafkaException kafkaException) {
                throw kafkaException;
            }
            throw new KafkaException("Could not describe " + what, cause);
        }
    }

    private Admin admin() {
        Admin a = admin;
        if (a == null) {
            synchronized (this) {
                a = admin;
                if (a == null) {
                    a = adminFactory.get();
                    admin = a;
                }
            }
        }
        return a;
    }

    private static <T> CompletableFuture<T> stage(KafkaFuture<T> future) {
        return future.toCompletionStage().toCompletableFuture();
    }
}
