package dev.quarantine.connect.rest.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.ExecutionException;

import org.junit.jupiter.api.Test;

class CausesTest {

    @Test
    void walksFromTheFailureToItsInnermostCause() {
        IOException root = new IOException("connection refused");
        ExecutionException middle = new ExecutionException(root);
        RuntimeException outer = new RuntimeException("read failed", middle);

        assertThat(Causes.of(outer)).containsExactly(outer, middle, root);
        assertThat(Causes.root(outer)).isSameAs(root);
        assertThat(Causes.root(root)).isSameAs(root);
        assertThat(Causes.include(outer, IOException.class)).isTrue();
        assertThat(Causes.include(outer, InterruptedException.class)).isFalse();
        assertThat(Causes.of(null)).isEmpty();
    }

    @Test
    void aCycleOfCausesEndsTheChainEachOnce() {
        RuntimeException first = new RuntimeException("first");
        RuntimeException second = new RuntimeException("second", first);
        first.initCause(second);

        assertTimeoutPreemptively(Duration.ofSeconds(5), () -> {
            assertThat(Causes.of(first)).containsExactly(first, second);
            assertThat(Causes.root(first)).isSameAs(second);
            assertThat(Causes.include(first, IllegalStateException.class)).isFalse();
        });
    }
}
