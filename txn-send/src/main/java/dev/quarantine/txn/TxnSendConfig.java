package dev.quarantine.txn;

import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;

import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigDef.Width;
import org.apache.kafka.common.config.ConfigException;

/**
 * Settings of a {@link TxnSendProducer}, given among its producer configs. They start with {@code txn.send.} and are
 * removed before the configs reach the underlying {@code KafkaProducer}.
 */
public final class TxnSendConfig extends AbstractConfig {

    /** Prefix of every setting of this class. */
    public static final String PREFIX = "txn.send.";

    private static final String GROUP = "Transactional send";

    public static final String DEFAULT_OPTION_CONFIG = PREFIX + "default.option";
    public static final String DEFAULT_OPTION_DEFAULT = TxnSendOption.NONE.name();
    public static final String DEFAULT_OPTION_DOC = "The option used by send(record) and send(record, callback)."
            + " NONE keeps KafkaProducer's behaviour; IGNORE_SEND_ERRORS leaves a record that cannot be sent out of"
            + " the transaction and completes its callback with the error, so the transaction still commits. The"
            + " Kafka Streams client supplier sets IGNORE_SEND_ERRORS on transactional producers.";

    public static final String TOPIC_CHECKS_ENABLE_CONFIG = PREFIX + "topic.checks.enable";
    public static final boolean TOPIC_CHECKS_ENABLE_DEFAULT = true;
    public static final String TOPIC_CHECKS_ENABLE_DOC = "Whether IGNORE_SEND_ERRORS also checks each record against"
            + " its topic before sending: that the topic and partition exist, the topic's max.message.bytes,"
            + " cleanup.policy=compact (a key is required) and message.timestamp.before/after.max.ms. The topic"
            + " metadata is read with an admin client built from these producer configs and cached. Turn off only"
            + " when the producer may not describe topics; a record the broker rejects then fails the transaction.";

    public static final String TOPIC_METADATA_MAX_AGE_MS_CONFIG = PREFIX + "topic.metadata.max.age.ms";
    public static final long TOPIC_METADATA_MAX_AGE_MS_DEFAULT = 30_000L;
    public static final String TOPIC_METADATA_MAX_AGE_MS_DOC = "How old cached topic metadata and configuration may"
            + " get before it is refreshed in the background. A topic seen as missing is looked up again after a"
            + " second; a partition beyond the cached count triggers an immediate refresh.";

    public static final String MISSING_TOPIC_WAIT_MS_CONFIG = PREFIX + "missing.topic.wait.ms";
    public static final long MISSING_TOPIC_WAIT_MS_DEFAULT = 1_000L;
    public static final String MISSING_TOPIC_WAIT_MS_DOC = "How long a topic that the cluster describes as unknown"
            + " the first time it is seen is looked up again before a record to it is left out with"
            + " UnknownTopicOrPartitionException (a topic created a moment ago may not have reached every broker)."
            + " KafkaProducer itself would wait max.block.ms and then fail the transaction.";

    /** The producer settings this library reads too; their types, defaults and validators are Kafka's own. */
    private static final List<String> PRODUCER_SETTINGS = List.of(ProducerConfig.MAX_REQUEST_SIZE_CONFIG,
            ProducerConfig.BUFFER_MEMORY_CONFIG, ProducerConfig.MAX_BLOCK_MS_CONFIG,
            ProducerConfig.TRANSACTIONAL_ID_CONFIG, ProducerConfig.CLIENT_ID_CONFIG,
            ProducerConfig.METADATA_MAX_IDLE_CONFIG);

    private static final ConfigDef PRODUCER_LIMITS = producerSettings();

    private final AbstractConfig producerLimits;

    /** @throws ConfigException for a bad value, or a {@code txn.send.} setting this class does not define (a typo) */
    public TxnSendConfig(Map<String, ?> producerConfigs) {
        super(configDef(), ours(producerConfigs), false);
        rejectUnknown(originals().keySet());
        this.producerLimits = new AbstractConfig(PRODUCER_LIMITS, producerConfigs, false);
    }

    /** The definition of every {@code txn.send.} setting, with documentation. */
    public static ConfigDef configDef() {
        ConfigDef def = new ConfigDef();
        new ConfigGroup(def, GROUP)
                .define(DEFAULT_OPTION_CONFIG, Type.STRING, DEFAULT_OPTION_DEFAULT,
                        ConfigDef.CaseInsensitiveValidString.in(names()), Importance.MEDIUM, DEFAULT_OPTION_DOC,
                        Width.MEDIUM, "Default send option")
                .define(TOPIC_CHECKS_ENABLE_CONFIG, Type.BOOLEAN, TOPIC_CHECKS_ENABLE_DEFAULT, null, Importance.LOW,
                        TOPIC_CHECKS_ENABLE_DOC, Width.SHORT, "Check records against their topic")
                .define(TOPIC_METADATA_MAX_AGE_MS_CONFIG, Type.LONG, TOPIC_METADATA_MAX_AGE_MS_DEFAULT,
                        ConfigDef.Range.atLeast(0), Importance.LOW, TOPIC_METADATA_MAX_AGE_MS_DOC, Width.SHORT,
                        "Topic metadata max age (ms)")
                .define(MISSING_TOPIC_WAIT_MS_CONFIG, Type.LONG, MISSING_TOPIC_WAIT_MS_DEFAULT,
                        ConfigDef.Range.atLeast(0), Importance.LOW, MISSING_TOPIC_WAIT_MS_DOC, Width.SHORT,
                        "Missing topic wait (ms)");
        return def;
    }

    /** The producer configs without the settings of this class, to hand to {@code KafkaProducer}. */
    public static Map<String, Object> withoutOurs(Map<String, ?> producerConfigs) {
        Map<String, Object> rest = new HashMap<>(producerConfigs);
        rest.keySet().removeIf(key -> key.startsWith(PREFIX));
        return rest;
    }

    /**
     * The producer configs in {@code properties} as a map, for {@link TxnSendProducer}'s constructors: every String
     * setting, its defaults included, and the entries of other types as they are.
     */
    static Map<String, Object> asMap(Properties properties) {
        Map<String, Object> map = new HashMap<>();
        properties.stringPropertyNames().forEach(name -> map.put(name, properties.getProperty(name)));
        properties.forEach((key, value) -> map.putIfAbsent(String.valueOf(key), value));
        return map;
    }

    public TxnSendOption defaultOption() {
        return TxnSendOption.valueOf(getString(DEFAULT_OPTION_CONFIG).toUpperCase(Locale.ROOT));
    }

    public boolean topicChecksEnabled() {
        return getBoolean(TOPIC_CHECKS_ENABLE_CONFIG);
    }

    public Duration topicMetadataMaxAge() {
        return Duration.ofMillis(getLong(TOPIC_METADATA_MAX_AGE_MS_CONFIG));
    }

    public Duration missingTopicWait() {
        return Duration.ofMillis(getLong(MISSING_TOPIC_WAIT_MS_CONFIG));
    }

    int maxRequestSize() {
        return producerLimits.getInt(ProducerConfig.MAX_REQUEST_SIZE_CONFIG);
    }

    long bufferMemory() {
        return producerLimits.getLong(ProducerConfig.BUFFER_MEMORY_CONFIG);
    }

    Duration maxBlock() {
        return Duration.ofMillis(producerLimits.getLong(ProducerConfig.MAX_BLOCK_MS_CONFIG));
    }

    /** How long the producer keeps the metadata of a topic it has not sent to ({@code metadata.max.idle.ms}). */
    Duration metadataMaxIdle() {
        return Duration.ofMillis(producerLimits.getLong(ProducerConfig.METADATA_MAX_IDLE_CONFIG));
    }

    Optional<String> transactionalId() {
        return Optional.ofNullable(producerLimits.getString(ProducerConfig.TRANSACTIONAL_ID_CONFIG));
    }

    String clientId() {
        String clientId = producerLimits.getString(ProducerConfig.CLIENT_ID_CONFIG);
        return clientId.isEmpty() ? transactionalId().orElse("txn-send") : clientId;
    }

    private static ConfigDef producerSettings() {
        Map<String, ConfigDef.ConfigKey> kafka = ProducerConfig.configDef().configKeys();
        ConfigDef settings = new ConfigDef();
        PRODUCER_SETTINGS.forEach(name -> settings.define(kafka.get(name)));
        return settings;
    }

    private static void rejectUnknown(Set<String> ourKeys) {
        Set<String> known = configDef().names();
        for (String key : ourKeys) {
            if (!known.contains(key)) {
                throw new ConfigException(key + " is not a setting of txn-send (known: " + new TreeSet<>(known)
                        + "); KafkaProducer would ignore it too");
            }
        }
    }

    private static Map<String, Object> ours(Map<String, ?> producerConfigs) {
        Map<String, Object> ours = new HashMap<>();
        producerConfigs.forEach((key, value) -> {
            if (key.startsWith(PREFIX)) {
                ours.put(key, value);
            }
        });
        return ours;
    }

    private static String[] names() {
        return Arrays.stream(TxnSendOption.values()).map(Enum::name).toArray(String[]::new);
    }
}
