package dev.quarantine.streams.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.kafka.common.errors.InterruptException;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class RetryPolicyTest {

    private final FakeStreams streams = new FakeStreams().state(KafkaStreams.State.REBALANCING);
    private final Classifier classifier = new Classifier(streams, FakeStreams.SELF);
    private final List<Duration> pauses = new ArrayList<>();
    private long now;
    private final RetryPolicy policy = new RetryPolicy(classifier, Duration.ofSeconds(1), Duration.ofMillis(10),
            Duration.ofMillis(100), () -> now, nanos -> {
                pauses.add(Duration.ofNanos(nanos));
                now += nanos;
            });

    @AfterEach
    void clearInterrupt() {
        Thread.interrupted();
    }

    @Test
    void retriesRetryableErrorsWithDoublingBoundedBackoffUntilTheReadAnswers() {
        AtomicInteger calls = new AtomicInteger();

        QueryOutcome<String> outcome = policy.call(() -> {
            if (calls.incrementAndGet() < 7) {
                throw new InvalidStateStoreException("the stream thread is PARTITIONS_ASSIGNED, not RUNNING");
            }
            return "value";
        });

        assertThat(outcome.value()).isEqualTo("value");
        assertThat(outcome.attempts()).isEqualTo(7);
        assertThat(pauses).containsExactly(Duration.ofMillis(10), Duration.ofMillis(20), Duration.ofMillis(40),
                Duration.ofMillis(80), Duration.ofMillis(100), Duration.ofMillis(100));
    }

    @Test
    void throwsTheLastRetryableErrorOnceTheDeadlinePassed() {
        assertThatThrownBy(() -> policy.call(() -> {
            throw new InvalidStateStoreException("still rebalancing");
        })).isInstanceOf(StateStoreRetryableException.class).hasMessageContaining("still rebalancing");

        assertThat(pauses.stream().mapToLong(Duration::toMillis).sum()).isEqualTo(1000);
    }

    @Test
    void returnsMigratedAtOnceWithTheOwner() {
        streams.hosts(FakeStreams.OTHER, "counts", 0);

        QueryOutcome<String> outcome = policy.call(() -> {
            throw new StateStoreMigratedException("moved", null, FakeStreams.OTHER);
        });

        assertThat(outcome.isMigrated()).isTrue();
        assertThat(outcome.owner()).contains(FakeStreams.OTHER);
        assertThat(outcome.attempts()).isEqualTo(1);
        assertThatThrownBy(outcome::value).isInstanceOf(StateStoreMigratedException.class);
        assertThat(pauses).isEmpty();
    }

    @Test
    void throwsFatalAtOnce() {
        streams.state(KafkaStreams.State.PENDING_SHUTDOWN);

        assertThatThrownBy(() -> policy.call(() -> {
            throw new InvalidStateStoreException("store closed");
        })).isInstanceOf(StateStoreFailException.class);
        assertThat(pauses).isEmpty();
    }

    @Test
    void throwsTheCallersOwnErrorsWithoutRetrying() {
        IllegalArgumentException bad = new IllegalArgumentException("bad range");

        assertThatThrownBy(() -> policy.call(() -> {
            throw bad;
        })).isSameAs(bad);
        assertThat(pauses).isEmpty();
    }

    @Test
    void stopsWhenInterruptedAndKeepsTheInterruptFlag() {
        RetryPolicy interrupted = new RetryPolicy(classifier, Duration.ofSeconds(1), Duration.ofMillis(10),
                Duration.ofMillis(100), () -> now, nanos -> {
                    throw new InterruptedException();
                });

        assertThatThrownBy(() -> interrupted.call(() -> {
            throw new InvalidStateStoreException("rebalancing");
        })).isInstanceOf(InterruptException.class)
                .satisfies(e -> assertThat(e.getSuppressed()).hasAtLeastOneElementOfType(StateStoreRetryableException.class));
        assertThat(Thread.currentThread().isInterrupted()).isTrue();
    }

    @Test
    void rejectsABackoffThatCannotWork() {
        assertThatThrownBy(() -> policy.withBackoff(Duration.ofSeconds(2), Duration.ofSeconds(1)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> policy.withBackoff(Duration.ZERO, Duration.ofSeconds(1)))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
