package dev.quarantine.replay;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ReplayConfigDefTest {

    @Test
    void theReplayDefinitionKeepsItsFiveGroupsInTheirOrder() {
        assertThat(ReplayConfig.configDef().groups()).containsExactly("Replay", "Filters",
                "Destinations and repeats", "Speed limits", "Loop guard");
    }
}
