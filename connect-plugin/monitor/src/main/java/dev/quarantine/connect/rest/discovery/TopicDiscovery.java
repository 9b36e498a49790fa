package dev.quarantine.connect.rest.discovery;

import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

import org.apache.kafka.connect.errors.NotFoundException;
import org.apache.kafka.connect.health.ConnectClusterState;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import dev.quarantine.connect.rest.http.Causes;
import dev.quarantine.connect.rest.http.LogText;
import dev.quarantine.connect.rest.MonitorConfig;

/**
 * Finds the dead-letter topics named in the cluster's connector configs, through the worker's
 * {@link ConnectClusterState}: Kafka Connect's {@code errors.deadletterqueue.topic.name} of any sink connector, and
 * {@code dlq.topic.name} of the transactional sink connector; and those the share groups name
 * ({@link ShareGroupDlqs}), attributed to the group only when no connector names the topic (whoever may alter a
 * group's config cannot take a connector's dead letters from it). Adds the topics and pattern from the settings.
 */
public final class TopicDiscovery implements AutoCloseable {

    // Public setting and class names, the contract between a connector config and this monitor. The monitor never
    // links to Connect's runtime nor to the sink's classes (another module of the plugin); TopicDiscoveryTest holds
    // the first two against Connect's own constants, and the archive module's PluginContractTest the last two against
    // the sink's.
    static final String CONNECTOR_CLASS_CONFIG = "connector.class";
    static final String CONNECT_DLQ_CONFIG = "errors.deadletterqueue.topic.name";
    static final String SINK_DLQ_CONFIG = "dlq.topic.name";
    static final String SINK_CLASS = "dev.quarantine.connect.sink.TransactionalKafkaSinkConnector";
    private static final Set<String> SINK_ALIASES = Set.of(SINK_CLASS, "TransactionalKafkaSinkConnector",
            "TransactionalKafkaSink");
    private static final Logger log = LoggerFactory.getLogger(TopicDiscovery.class);

    private final ConnectClusterState cluster;
    private final MonitorConfig config;
    private final Optional<ShareGroupDlqs> shareGroups;
    private final Optional<SubscriptionWidth> widths;
    /** The dead-letter topics each connector named at the last round that read its config (the monitor's thread). */
    private Map<String, Set<String>> topicsByConnector = Map.of();
    /** The connectors whose topics the last round kept without reading their config (WARN once per spell). */
    private Set<String> unreadableLastRound = Set.of();

    /**
     * @param shareGroups used when {@code quarantine.monitor.discover.share.groups} is set
     * @param widths      how wide the topics found are now (empty: not known, for tests of the rest)
     */
    public TopicDiscovery(ConnectClusterState cluster, MonitorConfig config, Optional<ShareGroupDlqs> shareGroups,
                          Optional<SubscriptionWidth> widths) {
        this.cluster = cluster;
        this.config = config;
        this.shareGroups = config.discoverShareGroups() ? shareGroups : Optional.empty();
        this.widths = widths;
    }

    /** Discovery without share groups, nor widths. */
    public TopicDiscovery(ConnectClusterState cluster, MonitorConfig config) {
        this(cluster, config, Optional.empty(), Optional.empty());
    }

    /**
     * The topics to monitor now. A connector deleted while being read is skipped; one whose config cannot be read
     * now (the worker rebalancing, its herder busy) keeps the topics it named at the last round that read it: a
     * topic that left the subscription for a round would start a new aggregation, and another when it came back.
     *
     * @throws RuntimeException when the worker cannot list its connectors (not yet joined, Kafka unreachable):
     *                          the caller keeps what it had
     */
    public MonitoredTopics discover() {
        Map<String, SortedSet<String>> byTopic = new TreeMap<>();
        if (config.discoverConnectors()) {
            Map<String, Set<String>> read = new TreeMap<>();
            Set<String> unreadable = new TreeSet<>();
            for (String connector : cluster.connectors()) {
                Set<String> topics;
                try {
                    topics = dlqTopics(cluster.connectorConfig(connector));
                } catch (RuntimeException e) {
                    if (Causes.include(e, InterruptedException.class)) { // the monitor is closing: no more herder calls
                        Thread.currentThread().interrupt();
                        throw e;
                    }
                    topics = Causes.include(e, NotFoundException.class) ? null : topicsByConnector.get(connector);
                    if (topics != null) {
                        unreadable.add(connector);
                    }
                    logUnreadable(connector, topics, e);
                }
                if (topics != null) {
                    read.put(connector, topics);
                    topics.forEach(topic -> byTopic.computeIfAbsent(topic, t -> new TreeSet<>()).add(connector));
                }
            }
            topicsByConnector = read;
            unreadableLastRound = unreadable;
        }
        shareGroups.ifPresent(groups -> groups.discover().forEach((topic, group) ->
                byTopic.putIfAbsent(topic, new TreeSet<>(Set.of(group)))));
        MonitoredTopics found = new MonitoredTopics(byTopic, config.topics(), config.topicsRegex());
        return widths.map(width -> width.of(found)).orElse(found);
    }

    @Override
    public void close() {
        shareGroups.ifPresent(ShareGroupDlqs::close);
        widths.ifPresent(SubscriptionWidth::close);
    }

    /** Logs a connector whose config could not be read: at WARN when its topics are kept from now on, else DEBUG. */
    private void logUnreadable(String connector, Set<String> kept, RuntimeException e) {
        if (kept != null && !unreadableLastRound.contains(connector)) {
            log.warn("Dead-letter monitor: the config of connector {} could not be read ({}); monitoring the"
                    + " dead-letter topics it named before, {}, until it can be", LogText.escape(connector),
                    LogText.escape(e), LogText.escape(kept));
        } else {
            log.debug("Connector {} could not be read ({}); {}", LogText.escape(connector), LogText.escape(e),
                    kept == null ? "skipped" : "still keeping its dead-letter topics " + LogText.escape(kept));
        }
    }

    /** The dead-letter topics one connector config names. */
    public static Set<String> dlqTopics(Map<String, String> connectorConfig) {
        Set<String> topics = new TreeSet<>();
        if (connectorConfig == null) {
            return topics;
        }
        addIfSet(topics, connectorConfig.get(CONNECT_DLQ_CONFIG));
        String connectorClass = connectorConfig.getOrDefault(CONNECTOR_CLASS_CONFIG, "").trim();
        if (SINK_ALIASES.contains(connectorClass)) {
            addIfSet(topics, connectorConfig.get(SINK_DLQ_CONFIG));
        }
        return topics;
    }

    private static void addIfSet(Set<String> topics, String topic) {
        if (topic != null && !topic.isBlank()) {
            topics.add(topic.trim());
        }
    }
}
