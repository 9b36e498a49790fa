package dev.quarantine.connect.rest.discovery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;

import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.errors.NotFoundException;
import org.apache.kafka.connect.health.ConnectClusterState;
import org.apache.kafka.connect.health.ConnectorHealth;
import org.apache.kafka.connect.runtime.ConnectorConfig;
import org.apache.kafka.connect.runtime.SinkConnectorConfig;
import org.junit.jupiter.api.Test;

import dev.quarantine.connect.rest.MonitorConfig;

class TopicDiscoveryTest {

    @Test
    void readsTheSettingNamesConnectDefines() {
        assertThat(TopicDiscovery.CONNECTOR_CLASS_CONFIG).isEqualTo(ConnectorConfig.CONNECTOR_CLASS_CONFIG);
        assertThat(TopicDiscovery.CONNECT_DLQ_CONFIG).isEqualTo(SinkConnectorConfig.DLQ_TOPIC_NAME_CONFIG);
    }

    @Test
    void findsConnectsOwnDeadLetterTopicOfAnySinkAndOursOnlyOnOurSink() {
        assertThat(TopicDiscovery.dlqTopics(Map.of("connector.class", "FileStreamSink",
                "errors.deadletterqueue.topic.name", " connect-dlq ", "dlq.topic.name", "not-ours")))
                .containsExactly("connect-dlq");
        assertThat(TopicDiscovery.dlqTopics(Map.of("connector.class", TopicDiscovery.SINK_CLASS,
                "dlq.topic.name", "sink-dlq"))).containsExactly("sink-dlq");
        assertThat(TopicDiscovery.dlqTopics(Map.of("connector.class", "TransactionalKafkaSinkConnector",
                "dlq.topic.name", "sink-dlq"))).as("by its alias").containsExactly("sink-dlq");
        assertThat(TopicDiscovery.dlqTopics(null)).isEmpty();
    }

    @Test
    void aConnectorWhoseConfigCannotBeReadNowKeepsItsTopicsSoTheSubscriptionDoesNotMove() {
        Cluster cluster = Cluster.ofTwoConnectors();
        TopicDiscovery discovery = new TopicDiscovery(cluster, cluster.config());
        MonitoredTopics before = discovery.discover();

        // as ConnectClusterStateImpl wraps a herder that is rebalancing or busy past the request timeout
        cluster.failing.add("copy");
        MonitoredTopics unreadable = discovery.discover();

        MonitoredTopics stillUnreadable = discovery.discover();
        cluster.failing.clear();
        cluster.configs.put("copy", Map.of("connector.class", TopicDiscovery.SINK_CLASS, "dlq.topic.name", "new-dlq"));
        MonitoredTopics readAgain = discovery.discover();

        assertThat(before.names()).containsExactly("copy-dlq", "json-dlq");
        assertThat(unreadable.subscribesSame(before)).as(unreadable.toString()).isTrue();
        assertThat(unreadable.connectorOf("copy-dlq")).isEqualTo("copy");
        assertThat(stillUnreadable.subscribesSame(before)).as("a second round: " + stillUnreadable).isTrue();
        assertThat(readAgain.names()).as("read again, its config now names another topic")
                .containsExactly("json-dlq", "new-dlq");
    }

    @Test
    void aCycleOfCausesDoesNotHoldTheMonitorsThread() {
        Cluster cluster = Cluster.ofTwoConnectors();
        TopicDiscovery discovery = new TopicDiscovery(cluster, cluster.config());
        discovery.discover();
        RuntimeException first = new RuntimeException("first");
        RuntimeException second = new RuntimeException("second", first);
        first.initCause(second);
        cluster.throwing.put("copy", first);

        MonitoredTopics kept = assertTimeoutPreemptively(Duration.ofSeconds(5), discovery::discover);

        assertThat(kept.names()).containsExactly("copy-dlq", "json-dlq");
    }

    @Test
    void anInterruptedReadEndsTheRoundAndKeepsTheInterrupt() {
        Cluster cluster = Cluster.ofTwoConnectors();
        TopicDiscovery discovery = new TopicDiscovery(cluster, cluster.config());
        discovery.discover();
        cluster.read.clear();
        // ConnectClusterStateImpl catches the InterruptedException of Monitor.close()'s shutdownNow and wraps it
        cluster.throwing.put("copy", new ConnectException("Failed to retrieve configuration for connector 'copy'",
                new InterruptedException()));

        try {
            assertThatThrownBy(discovery::discover).isInstanceOf(ConnectException.class);
            assertThat(Thread.currentThread().isInterrupted()).isTrue();
        } finally {
            Thread.interrupted();
        }
        assertThat(cluster.read).as("no herder call after the interrupt").containsExactly("copy");
    }

    @Test
    void aConnectorDeletedMeanwhileOrNeverReadIsLeftOut() {
        Cluster cluster = Cluster.ofTwoConnectors();
        cluster.failing.add("json");
        TopicDiscovery discovery = new TopicDiscovery(cluster, cluster.config());
        MonitoredTopics neverRead = discovery.discover();

        cluster.failing.clear();
        cluster.deleted.add("copy");
        MonitoredTopics deleted = discovery.discover();

        assertThat(neverRead.names()).as("json's config never read: nothing to keep").containsExactly("copy-dlq");
        assertThat(deleted.names()).as("copy deleted between the list and the read").containsExactly("json-dlq");
    }

    /** Connectors whose config reads fail as ConnectClusterStateImpl's do: a wrapped timeout, or a wrapped 404. */
    private static final class Cluster implements ConnectClusterState {
        final Map<String, Map<String, String>> configs = new HashMap<>();
        final List<String> failing = new ArrayList<>();
        final List<String> deleted = new ArrayList<>();
        final Map<String, RuntimeException> throwing = new HashMap<>();
        final List<String> read = new ArrayList<>();

        /** "copy", our sink with its dead-letter topic, and "json", another sink with Connect's. */
        static Cluster ofTwoConnectors() {
            Cluster cluster = new Cluster();
            cluster.configs.put("copy", Map.of("connector.class", TopicDiscovery.SINK_CLASS,
                    "dlq.topic.name", "copy-dlq"));
            cluster.configs.put("json", Map.of("connector.class", "FileStreamSink",
                    "errors.deadletterqueue.topic.name", "json-dlq"));
            return cluster;
        }

        MonitorConfig config() {
            return new MonitorConfig(Map.of("bootstrap.servers", "127.0.0.1:1", "group.id", "connect-cluster"));
        }

        @Override
        public Collection<String> connectors() {
            return new TreeMap<>(configs).keySet();
        }

        @Override
        public ConnectorHealth connectorHealth(String connName) {
            throw new UnsupportedOperationException();
        }

        @Override
        public Map<String, String> connectorConfig(String connName) {
            read.add(connName);
            if (throwing.containsKey(connName)) {
                throw throwing.get(connName);
            }
            if (deleted.contains(connName)) {
                throw new ConnectException("Failed to retrieve configuration for connector '" + connName + "'",
                        new ExecutionException(new NotFoundException("Connector " + connName + " not found")));
            }
            if (failing.contains(connName)) {
                throw new ConnectException("Failed to retrieve configuration for connector '" + connName + "'",
                        new java.util.concurrent.TimeoutException());
            }
            return configs.get(connName);
        }
    }
}
