package dev.quarantine.connect.sink.progress;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Optional;

import org.apache.kafka.common.Uuid;
import org.junit.jupiter.api.Test;

class SourceIdentityTest {

    private static final Optional<Uuid> A = Optional.of(Uuid.fromString("b2xkT3JkZXJzVG9waWMxMg"));
    private static final Optional<Uuid> B = Optional.of(Uuid.fromString("bmV3T3JkZXJzVG9waWMxMg"));

    @Test
    void resumesProgressWrittenForTheTopicAsItIsNow() {
        assertThat(SourceIdentity.replaced(A, A)).isFalse();
    }

    @Test
    void startsOverWhenTheTopicHasAnotherIdThanItsProgressWasWrittenFor() {
        assertThat(SourceIdentity.replaced(A, B)).isTrue();
    }

    @Test
    void resumesWhenEitherIdIsUnknownHavingNothingToTellBy() {
        assertThat(SourceIdentity.replaced(Optional.empty(), B)).isFalse();
        assertThat(SourceIdentity.replaced(A, Optional.empty())).isFalse();
        assertThat(SourceIdentity.replaced(Optional.empty(), Optional.empty())).isFalse();
    }
}
