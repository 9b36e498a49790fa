package dev.quarantine.connect.rest.aggregation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.kafka.connect.health.ConnectClusterState;
import org.apache.kafka.connect.health.ConnectorHealth;
import org.junit.jupiter.api.Test;
import dev.quarantine.connect.rest.MonitorConfig;
import dev.quarantine.connect.rest.http.MonitorException;
import dev.quarantine.connect.rest.discovery.TopicDiscovery;
import dev.quarantine.connect.rest.WorkerSettings;

class MonitorTest {

    @Test
    void aRoundThatFailsWithALinkageErrorIsAnsweredAndTheMonitorKeepsTrying() {
        AtomicInteger rounds = new AtomicInteger();
        Map<String, Object> settings = Map.of("group.id", "connect-cluster", "bootstrap.servers", "127.0.0.1:1",
                MonitorConfig.DISCOVERY_INTERVAL_MS_CONFIG, "100");
        MonitorConfig config = new MonitorConfig(settings);
        try (Monitor monitor = new Monitor(config, WorkerSettings.from(settings, config),
                new TopicDiscovery(failingCluster(rounds), config))) {
            monitor.start();
            awaitRounds(rounds, 3);

            assertThatThrownBy(monitor::current).isInstanceOfSatisfying(MonitorException.class, answer -> {
                assertThat(answer.status()).isEqualTo(503);
                assertThat(answer.publicMessage()).contains("could not start (java.lang.NoSuchMethodError)",
                        "retrying");
            });
        }
    }

    /** A cluster state whose every read fails as a method missing from an older worker would. */
    private static ConnectClusterState failingCluster(AtomicInteger rounds) {
        return new ConnectClusterState() {
            @Override
            public Collection<String> connectors() {
                rounds.incrementAndGet();
                throw new NoSuchMethodError("ConnectClusterState.connectors()");
            }

            @Override
            public ConnectorHealth connectorHealth(String connName) {
                throw new NoSuchMethodError("ConnectClusterState.connectorHealth(String)");
            }
        };
    }

    private static void awaitRounds(AtomicInteger rounds, int wanted) {
        Instant deadline = Instant.now().plus(Duration.ofSeconds(30));
        while (rounds.get() < wanted) {
            assertThat(Instant.now()).as("%s discovery rounds within 30 s (a scheduled task that threw never runs"
                    + " again); saw %s", wanted, rounds.get()).isBefore(deadline);
            Thread.onSpinWait();
        }
    }
}
