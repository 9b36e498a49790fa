package dev.quarantine.connect.rest.replays;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Optional;

import org.junit.jupiter.api.Test;
import dev.quarantine.connect.rest.http.MonitorException;

class ReplayIdsTest {

    @Test
    void theSameKeyForTheSameTopicGivesTheSameId() {
        String id = ReplayIds.forRequest("orders.dlq", Optional.of("0b7c5a2e-9f1d-4c1e-8a57-2f6d3c1b9e40"));

        assertThat(ReplayIds.forRequest("orders.dlq", Optional.of("0b7c5a2e-9f1d-4c1e-8a57-2f6d3c1b9e40")))
                .isEqualTo(id);
        assertThat(id).startsWith(ReplayIds.PREFIX).matches("[a-zA-Z0-9._-]{1,200}");
    }

    @Test
    void anotherTopicOrKeyGivesAnotherId() {
        String id = ReplayIds.forRequest("a", Optional.of("bc"));

        assertThat(ReplayIds.forRequest("ab", Optional.of("c"))).isNotEqualTo(id);
        assertThat(ReplayIds.forRequest("a", Optional.of("bd"))).isNotEqualTo(id);
        assertThat(ReplayIds.forRequest("b", Optional.of("bc"))).isNotEqualTo(id);
    }

    @Test
    void withoutAKeyEveryRequestGetsANewId() {
        assertThat(ReplayIds.forRequest("a", Optional.empty())).isNotEqualTo(ReplayIds.forRequest("a",
                Optional.empty()));
    }

    @Test
    void refusesAKeyTooLongOrOutsideItsCharactersNamingTheHeader() {
        for (String key : new String[] {"", "a".repeat(ReplayIds.MAX_KEY_CHARS + 1), "a b", "a\r\nb", "é"}) {
            assertThatThrownBy(() -> ReplayIds.forRequest("a", Optional.of(key)))
                    .isInstanceOfSatisfying(MonitorException.class, e -> {
                        assertThat(e.status()).isEqualTo(400);
                        assertThat(e.publicMessage()).contains(ReplayIds.IDEMPOTENCY_KEY_HEADER);
                    });
        }
        assertThat(ReplayIds.forRequest("a", Optional.of("a".repeat(ReplayIds.MAX_KEY_CHARS)))).isNotBlank();
    }
}
