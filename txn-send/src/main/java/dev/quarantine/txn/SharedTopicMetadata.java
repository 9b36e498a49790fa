package dev.quarantine.txn;

import java.util.Map;

import org.apache.kafka.common.config.ConfigException;

/**
 * One topic-metadata cache, over one admin client, for the up-front topic checks of many {@link TxnSendProducer}s
 * writing to the same cluster. By default each producer describes the topics it writes with an admin client of its
 * own; an application with many transactional producers (one per source partition, for fencing) gives them one of
 * these instead, so each topic is described once for all of them and there is one admin client (one network thread,
 * its connections) instead of one per producer.
 *
 * <p>Built from producer configs, as a producer would be: the admin client settings among them (connection and
 * security) reach the admin client, created on first use; {@code txn.send.topic.metadata.max.age.ms},
 * {@code txn.send.missing.topic.wait.ms} and {@code max.block.ms} (how long a look-up may block) apply to every
 * producer that reads it, in place of each producer's own. A producer whose {@code txn.send.topic.checks.enable} is
 * false does not read it (the setting is not read here).
 *
 * <p>Whoever creates it closes it, after the producers that read it: a producer never closes a cache it was given,
 * and a producer still reading a closed cache fails with {@code IllegalStateException} (thrown from {@code send})
 * as soon as it needs to describe a topic. Thread-safe.
 */
public final class SharedTopicMetadata implements AutoCloseable {

    private final TopicMetadataCache cache;

    /**
     * @param configs producer configs for the cluster the producers write to ({@code transactional.id}, serializers
     *                and other producer-only settings are ignored)
     * @throws ConfigException for a bad {@code txn.send.} value
     */
    public SharedTopicMetadata(Map<String, ?> configs) {
        this(TopicMetadataCache.create(new TxnSendConfig(configs), configs));
    }

    /** For tests: over a cache of the test's own. */
    SharedTopicMetadata(TopicMetadataCache cache) {
        this.cache = cache;
    }

    TopicMetadataCache cache() {
        return cache;
    }

    /** Closes the admin client; producers still reading this cache fail when they next need to describe a topic. */
    @Override
    public void close() {
        cache.close();
    }
}
