package dev.quarantine.connect.rest.http;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** When a 401 gets the Basic challenge that makes a browser ask for a user name and password, row by row. */
class BrowserLoginChallengeTest {

    @Test
    void challengesA401ToTheDashboardOrTheMonitorsJsonWithoutCredentials() {
        assertThat(BrowserLoginChallenge.challenges(401, false, "dead-letters/ui", null)).isTrue();
        assertThat(BrowserLoginChallenge.challenges(401, false, "dead-letters", null)).isTrue();
        assertThat(BrowserLoginChallenge.challenges(401, false, "/dead-letters/orders-dlq/records", null)).isTrue();
    }

    @Test
    void challengesAgainWhenBasicCredentialsWereWrong() {
        assertThat(BrowserLoginChallenge.challenges(401, false, "dead-letters/ui", "Basic b3A6Z3Vlc3M=")).isTrue();
        assertThat(BrowserLoginChallenge.challenges(401, false, "dead-letters/ui", "basic b3A6Z3Vlc3M=")).isTrue();
    }

    @Test
    void leavesOtherSchemesOtherStatusesOtherPathsAndExistingChallengesAlone() {
        assertThat(BrowserLoginChallenge.challenges(401, false, "dead-letters/ui", "Bearer abc")).isFalse();
        assertThat(BrowserLoginChallenge.challenges(403, false, "dead-letters/ui", null)).isFalse();
        assertThat(BrowserLoginChallenge.challenges(200, false, "dead-letters/ui", null)).isFalse();
        assertThat(BrowserLoginChallenge.challenges(401, false, "connectors", null)).isFalse();
        assertThat(BrowserLoginChallenge.challenges(401, false, "dead-letters-archive", null)).isFalse();
        assertThat(BrowserLoginChallenge.challenges(401, true, "dead-letters/ui", null)).isFalse();
    }
}
