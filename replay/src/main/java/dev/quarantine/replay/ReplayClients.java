package dev.quarantine.replay;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.serialization.ByteArraySerializer;

import dev.quarantine.txn.TxnSendConfig;
import dev.quarantine.txn.progress.PartitionOffsets;
import dev.quarantine.txn.progress.ReadCommittedConsumers;

/** What the replay's clients share: settings filtering, end offsets and creating the topics it writes to. */
final class ReplayClients {

    private ReplayClients() {
    }

    /** The settings among {@code configs} that a client with these {@code names} knows. */
    static Map<String, Object> known(Map<String, Object> configs, Set<String> names) {
        Map<String, Object> known = new HashMap<>();
        configs.forEach((key, value) -> {
            if (names.contains(key)) {
                known.put(key, value);
            }
        });
        return known;
    }

    /**
     * The end offsets of {@code partitions} as a reader with {@code isolation} sees them: READ_COMMITTED gives the
     * last stable offsets (nothing of an open transaction), READ_UNCOMMITTED the log end offsets.
     */
    static Map<TopicPartition, Long> endOffsets(Admin admin, List<TopicPartition> partitions, IsolationLevel isolation,
                                                Duration timeout) {
        return PartitionOffsets.list(admin, partitions, OffsetSpec.latest(), isolation, timeout);
    }

    /** The topic id of {@code topic}, which exists: it tells a topic from one deleted earlier under its name. */
    static Uuid topicId(Admin admin, String topic, Duration timeout) {
        return await(admin.describeTopics(List.of(topic)).allTopicNames(), timeout, "describe topic " + topic)
                .get(topic).topicId();
    }

    /** Creates {@code topic} unless it exists. */
    static void createIfMissing(Admin admin, NewTopic topic, String setting, Duration timeout) {
        try {
            admin.createTopics(List.of(topic)).all().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            if (!(e.getCause() instanceof TopicExistsException)) {
                throw new KafkaException("Could not create topic " + topic.name() + " (" + setting + "): create it,"
                        + " or name an existing one in " + setting, e.getCause());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new KafkaException("Interrupted while creating topic " + topic.name(), e);
        } catch (java.util.concurrent.TimeoutException e) { // the future's, not Kafka's
            throw new TimeoutException("Could not create topic " + topic.name()
                    + " within " + timeout.toMillis() + " ms", e);
        }
    }

    /**
     * Checks that {@code progressTopic} keeps what a replay commits there, read back as it was committed: one
     * partition (a progress record and its segment records have different keys, so on several partitions a reader
     * could see one without the other) and {@code cleanup.policy=compact} exactly (retention would delete segment
     * records of written ranges, and later replays would write those dead letters again).
     *
     * @throws ConfigException naming {@code replay.progress.topic.name} and what to change
     */
    static void requireProgressTopic(Admin admin, String progressTopic, Duration timeout) {
        int partitions = await(admin.describeTopics(List.of(progressTopic)).allTopicNames(), timeout,
                "describe the progress topic " + progressTopic).get(progressTopic).partitions().size();
        if (partitions != 1) {
            throw new ConfigException(ReplayConfig.PROGRESS_TOPIC_CONFIG, progressTopic, "the topic has " + partitions
                    + " partitions, not 1: a replay's progress and the records of its written ranges could land on"
                    + " different partitions and be read apart. Name a topic of one partition (a replay creates a"
                    + " missing one so)");
        }
        ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, progressTopic);
        ConfigEntry policy = await(admin.describeConfigs(List.of(resource)).all(), timeout,
                "describe the configs of the progress topic " + progressTopic).get(resource)
                .get(TopicConfig.CLEANUP_POLICY_CONFIG);
        String value = policy == null ? null : policy.value();
        if (!TopicConfig.CLEANUP_POLICY_COMPACT.equals(value)) {
            throw new ConfigException(ReplayConfig.PROGRESS_TOPIC_CONFIG, progressTopic, "the topic has "
                    + TopicConfig.CLEANUP_POLICY_CONFIG + "=" + value + ", not compact: retention would delete the"
                    + " segment records of replays' written ranges, and later replays would write those dead letters"
                    + " again. Set " + TopicConfig.CLEANUP_POLICY_CONFIG + "=compact on it, or name another topic");
        }
    }

    static <T> T await(KafkaFuture<T> future, Duration timeout, String what) {
        try {
            return future.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof KafkaException k ? k : new KafkaException("Could not " + what, e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new KafkaException("Interrupted while trying to " + what, e);
        } catch (java.util.concurrent.TimeoutException e) { // the future's, not Kafka's
            throw new TimeoutException("Could not " + what + " within "
                    + timeout.toMillis() + " ms", e);
        }
    }

    /** The read_committed, group-less consumer that reads the dead-letter topic. */
    static Map<String, Object> consumerConfigs(Map<String, Object> clients, ReplayConfig config) {
        Map<String, Object> configs = ReadCommittedConsumers.configs(clients);
        configs.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, config.batchSize());
        configs.put(ConsumerConfig.CLIENT_ID_CONFIG,
                ReplayEngine.TRANSACTIONAL_ID_PREFIX + config.replayId() + "-reader");
        return configs;
    }

    /**
     * The transactional producer of a replay: transactional.id {@code quarantine-replay-<replay.id>}; the producer
     * settings and {@code txn.send.*} among the client settings.
     */
    static Map<String, Object> producerConfigs(Map<String, Object> clients, ReplayConfig config) {
        Map<String, Object> configs = new HashMap<>(known(clients, ProducerConfig.configNames()));
        clients.forEach((key, value) -> {
            if (key.startsWith(TxnSendConfig.PREFIX)) {
                configs.put(key, value);
            }
        });
        configs.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, ReplayEngine.TRANSACTIONAL_ID_PREFIX + config.replayId());
        configs.put(ProducerConfig.CLIENT_ID_CONFIG, ReplayEngine.TRANSACTIONAL_ID_PREFIX + config.replayId());
        configs.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        configs.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        return configs;
    }
}
