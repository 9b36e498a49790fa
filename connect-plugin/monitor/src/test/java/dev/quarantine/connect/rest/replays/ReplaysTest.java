package dev.quarantine.connect.rest.replays;

import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.Test;

import dev.quarantine.replay.ReplayConfig;
import dev.quarantine.connect.rest.MonitorConfig;
import dev.quarantine.connect.rest.http.MonitorException;

/** What a start request is refused for before the monitor calls the worker (nothing listens at its address here). */
class ReplaysTest {

    private static final Duration SHORT = Duration.ofSeconds(1);

    @Test
    void aReplayToHeaderChosenDestinationsIsRefusedNamingTheWorkerSettingWhileItIsEmpty() {
        for (String destination : new String[] {"original", "source"}) {
            assertThatThrownBy(() -> replays("").start("orders.dlq", Map.of(ReplayConfig.DESTINATION_CONFIG,
                    destination), Optional.empty(), Optional.empty()))
                    .isInstanceOfSatisfying(MonitorException.class, e -> {
                        assertThat(e.status()).isEqualTo(400);
                        assertThat(e.publicMessage()).contains(MonitorConfig.REPLAY_DESTINATIONS_ALLOWED_CONFIG,
                                destination);
                    });
        }
    }

    @Test
    void aReplayToANamedTopicOrWithAnAllowListGoesOnToTheWorker() {
        assertWorkerCalled(replays(""), Map.of(ReplayConfig.DESTINATION_CONFIG, "orders"));
        assertWorkerCalled(replays("orders"), Map.of());
    }

    @Test
    void aNamedDestinationAmongTheWorkersOwnTopicsIsRefusedNamingTheSetting() {
        assertThatThrownBy(() -> replays("").start("orders.dlq", Map.of(ReplayConfig.DESTINATION_CONFIG,
                "team.connect-configs"), Optional.empty(), Optional.empty()))
                .isInstanceOfSatisfying(MonitorException.class, e -> {
                    assertThat(e.status()).isEqualTo(400);
                    assertThat(e.publicMessage()).contains(ReplayConfig.DESTINATION_CONFIG);
                });
    }

    private static void assertWorkerCalled(Replays replays, Map<String, String> requested) {
        assertThatThrownBy(() -> replays.start("orders.dlq", requested, Optional.empty(), Optional.empty()))
                .isInstanceOfSatisfying(MonitorException.class, e -> {
                    assertThat(e.status()).isEqualTo(503);
                    assertThat(e.getMessage()).contains("did not answer");
                });
    }

    private static Replays replays(String allowed) {
        MonitorConfig config = new MonitorConfig(Map.of(MonitorConfig.REPLAY_DESTINATIONS_ALLOWED_CONFIG, allowed));
        return new Replays(new WorkerRestClient("http://127.0.0.1:1", SHORT), Map.of("bootstrap.servers",
                "127.0.0.1:1"), SHORT, ReplayDestinations.of(config, Map.of("config.storage.topic",
                "team.connect-configs"), "team-dead-letter-monitor"), SHORT, new DryRunSlots(1));
    }
}
