package dev.quarantine.connect.rest;

import static dev.quarantine.connect.rest.MonitorConfig.APPLICATION_ID_CONFIG;
import static dev.quarantine.connect.rest.MonitorConfig.BOOTSTRAP_SERVERS_CONFIG;
import static dev.quarantine.connect.rest.MonitorConfig.STREAMS_PREFIX;

import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigDef.Width;

/**
 * The {@link MonitorConfig} settings of the group "Aggregation (Kafka Streams)": the embedded Kafka Streams
 * aggregation: its application.id and the cluster it reads. Their docs and definitions; the keys and defaults stay in
 * {@link MonitorConfig}, where the code and the tests name them.
 */
final class StreamsConfigGroup {

    static final String NAME = "Aggregation (Kafka Streams)";

    private static final String APPLICATION_ID_DOC = "application.id of the embedded Kafka Streams aggregation."
            + " Empty: the worker's group.id followed by -dead-letter-monitor, so every worker of a Connect cluster"
            + " joins the same aggregation.";

    private static final String BOOTSTRAP_SERVERS_DOC = "The cluster holding the dead-letter topics. Empty: the"
            + " worker's own bootstrap.servers and client security settings (security.*, sasl.*, ssl.*).";

    private StreamsConfigGroup() {
    }

    static void define(ConfigDef def) {
        new MonitorConfigGroup(def, NAME)
                .define(APPLICATION_ID_CONFIG, Type.STRING, "", new ConfigDef.NonNullValidator(), Importance.LOW,
                        APPLICATION_ID_DOC, Width.MEDIUM, "Streams application.id")
                .define(BOOTSTRAP_SERVERS_CONFIG, Type.STRING, "", new ConfigDef.NonNullValidator(), Importance.LOW,
                        BOOTSTRAP_SERVERS_DOC + " Any Kafka Streams or client setting can be given with the prefix "
                                + STREAMS_PREFIX + " (for example " + STREAMS_PREFIX + "num.stream.threads).",
                        Width.LONG, "Dead-letter cluster");
    }
}
