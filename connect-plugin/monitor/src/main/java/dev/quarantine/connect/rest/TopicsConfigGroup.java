package dev.quarantine.connect.rest;

import static dev.quarantine.connect.rest.MonitorConfig.DISCOVERY_INTERVAL_MS_CONFIG;
import static dev.quarantine.connect.rest.MonitorConfig.DISCOVERY_INTERVAL_MS_DEFAULT;
import static dev.quarantine.connect.rest.MonitorConfig.DISCOVER_CONNECTORS_CONFIG;
import static dev.quarantine.connect.rest.MonitorConfig.DISCOVER_SHARE_GROUPS_CONFIG;
import static dev.quarantine.connect.rest.MonitorConfig.TOPICS_CONFIG;
import static dev.quarantine.connect.rest.MonitorConfig.TOPICS_REGEX_CONFIG;
import static dev.quarantine.connect.rest.MonitorConfig.TOPICS_REGEX_DEFAULT;

import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigDef.Width;

/**
 * The {@link MonitorConfig} settings of the group "Dead-letter topics": which dead-letter topics the monitor reads:
 * named, matched by a pattern, or discovered from connectors and share groups. Their docs and definitions; the keys
 * and defaults stay in {@link MonitorConfig}, where the code and the tests name them.
 */
final class TopicsConfigGroup {

    static final String NAME = "Dead-letter topics";

    private static final String TOPICS_DOC = "Dead-letter topics to monitor besides those the cluster's connectors"
            + " name (errors.deadletterqueue.topic.name, and dlq.topic.name of the transactional sink). A topic"
            + " that does not exist yet is picked up when it is created.";

    private static final String TOPICS_REGEX_DOC = "A Java regular expression: every topic of the cluster whose whole"
            + " name matches it is monitored too. The default matches the usual dead-letter names: Spring Kafka's"
            + " <topic>-dlt, <topic>-dlq, <topic>.dlq, and dlq.<topic> (the default prefix of share groups' dead-letter"
            + " topics). Empty: none.";

    private static final String DISCOVER_SHARE_GROUPS_DOC = "Whether to monitor the dead-letter topics the cluster's"
            + " share groups name in their errors.deadletterqueue.topic.name group config (KIP-1191, Kafka 4.4), read"
            + " with the Admin API every discovery interval (the worker's principal needs Describe on the groups).";

    private static final String DISCOVER_CONNECTORS_DOC = "Whether to monitor the dead-letter topics named in the"
            + " configs of the cluster's connectors, read through the worker's cluster state.";

    private static final String DISCOVERY_INTERVAL_MS_DOC = "How often the connector configs are read for new"
            + " dead-letter topics. When the set changes, the aggregation restarts (a few seconds of 503 answers);"
            + " a new set of topics starts a new aggregation (application.id suffixed with a digest of the set),"
            + " rebuilt from the topics' contents.";

    private TopicsConfigGroup() {
    }

    static void define(ConfigDef def) {
        new MonitorConfigGroup(def, NAME)
                .define(TOPICS_CONFIG, Type.LIST, "", new ConfigDef.NonNullValidator(), Importance.HIGH, TOPICS_DOC,
                        Width.LONG, "Extra dead-letter topics")
                .define(TOPICS_REGEX_CONFIG, Type.STRING, TOPICS_REGEX_DEFAULT, new MonitorValidators.Regex(),
                        Importance.MEDIUM, TOPICS_REGEX_DOC, Width.LONG, "Dead-letter topic pattern")
                .define(DISCOVER_CONNECTORS_CONFIG, Type.BOOLEAN, true, null, Importance.MEDIUM,
                        DISCOVER_CONNECTORS_DOC, Width.SHORT, "Discover from connectors")
                .define(DISCOVER_SHARE_GROUPS_CONFIG, Type.BOOLEAN, true, null, Importance.MEDIUM,
                        DISCOVER_SHARE_GROUPS_DOC, Width.SHORT, "Discover from share groups")
                .durationMs(DISCOVERY_INTERVAL_MS_CONFIG, DISCOVERY_INTERVAL_MS_DEFAULT, 3_600_000L,
                        DISCOVERY_INTERVAL_MS_DOC, "Discovery interval");
    }
}
