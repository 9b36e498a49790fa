package dev.quarantine.connect.rest.replays;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import dev.quarantine.connect.rest.MonitorConfig;
import dev.quarantine.connect.rest.http.MonitorException;

class DryRunSlotsTest {

    @Test
    void aDryRunBeyondTheLimitIsRefusedWith429NamingTheSetting() {
        DryRunSlots slots = new DryRunSlots(1);

        String inner = slots.run(() -> {
            assertThatThrownBy(() -> slots.run(() -> "second")).isInstanceOfSatisfying(MonitorException.class, e -> {
                assertThat(e.status()).isEqualTo(429);
                assertThat(e.publicMessage()).contains(MonitorConfig.REPLAY_DRY_RUN_MAX_CONCURRENT_CONFIG, "1");
            });
            return "first";
        });

        assertThat(inner).isEqualTo("first");
    }

    @Test
    void aSlotIsFreeAgainAfterTheDryRunEndedAlsoByAnError() {
        DryRunSlots slots = new DryRunSlots(1);

        assertThatThrownBy(() -> slots.run(() -> {
            throw new IllegalStateException("failed");
        })).isInstanceOf(IllegalStateException.class);

        assertThat(slots.run(() -> "again")).isEqualTo("again");
    }
}
