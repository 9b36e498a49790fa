package dev.quarantine.connect.rest.replays;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import dev.quarantine.replay.ReplayConfig;
import dev.quarantine.connect.rest.MonitorConfig;

class ReplayDestinationsTest {

    private static final Map<String, String> WORKER = Map.of("config.storage.topic", "team.connect-configs",
            "offset.storage.topic", "team.connect-offsets", "status.storage.topic", "team.connect-status");

    @Test
    void theAllowListIsTheWorkersSetting() {
        ReplayDestinations destinations = ReplayDestinations.of(config("orders|payments\\..*"), WORKER,
                "team-dead-letter-monitor");

        assertThat(destinations.settings()).containsEntry(ReplayConfig.DESTINATIONS_ALLOWED_CONFIG,
                "orders|payments\\..*");
        assertThat(ReplayDestinations.of(config(""), WORKER, "x").allowed()).isEmpty();
    }

    @Test
    void deniesTheWorkersOwnTopicsTheMonitorsTopicsTheProgressAndParkingTopics() {
        Pattern denied = Pattern.compile(ReplayDestinations.of(config(".*"), WORKER, "team-dead-letter-monitor")
                .denied());

        for (String topic : new String[] {"team.connect-configs", "team.connect-offsets", "team.connect-status",
                "team-dead-letter-monitor-3f2a-dead-letter-figures-changelog",
                "team-dead-letter-monitor-3f2a-KSTREAM-AGGREGATE-0000000001-repartition",
                ReplayConfig.PROGRESS_TOPIC_DEFAULT, "orders.dlq.parking"}) {
            assertThat(denied.matcher(topic).matches()).as(topic).isTrue();
        }
        for (String topic : new String[] {"orders", "team.connect-configs2", "teamXconnect-configs", "parking",
                "team-dead-letter-monitor"}) {
            assertThat(denied.matcher(topic).matches()).as(topic).isFalse();
        }
    }

    private static MonitorConfig config(String allowed) {
        return new MonitorConfig(Map.of(MonitorConfig.REPLAY_DESTINATIONS_ALLOWED_CONFIG, allowed));
    }
}
