package dev.quarantine.connect.sink.ownership;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.Set;

import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.connect.errors.ConnectException;
import org.junit.jupiter.api.Test;

import dev.quarantine.connect.sink.ownership.OwnershipLog.LogRead;
import dev.quarantine.sandbox.MovableClock;

/** When the opening of partitions fails the task ({@link StageFailures}), row by row. */
class StageFailuresTest {

    private static final Duration TIMEOUT = Duration.ofMinutes(5);
    private static final Set<TopicPartition> WAITING = Set.of(new TopicPartition("orders", 3));

    private final MovableClock clock = new MovableClock();
    private final StageFailures failures = new StageFailures("copy:task#0.0", TIMEOUT, clock);

    @Test
    void aReadHeldBackOrFailingForNowIsTriedAgain() {
        assertThat(StageFailures.causeOf(new LogRead.HeldBack<>(7), "claims", "copy-progress")).isInstanceOf(TimeoutException.class)
                .hasMessageContaining("last stable offset 7");
        assertThat(StageFailures.causeOf(new LogRead.Failed<>(new TimeoutException("slow")), "claims", "copy-progress"))
                .hasMessage("slow");
    }

    @Test
    void aReadThatFailsForGoodFailsTheTaskAtOnce() {
        assertThatThrownBy(() -> StageFailures.causeOf(new LogRead.Failed<>(new KafkaException(
                "The record copy-progress-1@4 cannot be read: holder is missing")), "claims", "copy-progress"))
                .isInstanceOf(ConnectException.class).hasMessageContaining("copy-progress-1@4");
        assertThatThrownBy(() -> StageFailures.causeOf(new LogRead.Failed<>(new TopicAuthorizationException(
                Set.of("copy-progress"))), "progress", "copy-progress")).isInstanceOf(ConnectException.class);
    }

    @Test
    void aProgressTopicDeletedWhileTheTaskRunsFailsItNamingTheTopicAndHowToGoOn() {
        // a read of a deleted topic fails with UnknownTopicOrPartitionException, a RetriableException in Kafka: tried
        // again, the task would wait out transient.errors.timeout.ms and then fail naming the wrong cause
        for (String what : List.of("claims", "progress")) {
            assertThatThrownBy(() -> StageFailures.causeOf(new LogRead.Failed<>(
                    new UnknownTopicOrPartitionException("metadata for topic `copy-progress` could not be found")),
                    what, "copy-progress")).isInstanceOf(ConnectException.class)
                    .hasMessageContaining("The progress topic copy-progress does not exist")
                    .hasMessageContaining("restart the connector");
        }
    }

    /** A review finding: a timeout that met an unknown topic on its way (a broker not yet knowing it) is retried. */
    @Test
    void aTimeoutCausedByAnUnknownTopicIsTriedAgain() {
        TimeoutException timeout = new TimeoutException("listOffsets timed out",
                new UnknownTopicOrPartitionException("copy-progress-0"));
        assertThat(StageFailures.causeOf(new LogRead.Failed<>(timeout), "progress", "copy-progress"))
                .isSameAs(timeout);
    }

    @Test
    void stagesFailingForNowFailTheTaskOnlyPastTheTimeoutAndASuccessRestartsTheClock() {
        assertThat(failures.failed(new TimeoutException("a"), WAITING)).isEmpty();
        clock.advance(TIMEOUT);
        assertThat(failures.failed(new TimeoutException("b"), WAITING)).isEmpty();
        failures.succeeded();
        clock.advance(TIMEOUT);
        assertThat(failures.failed(new TimeoutException("c"), WAITING)).isEmpty();
        clock.advance(TIMEOUT);
        assertThat(failures.failed(new TimeoutException("d"), WAITING)).isEmpty();
        clock.advance(Duration.ofMillis(1));

        assertThat(failures.failed(new TimeoutException("e"), WAITING)).get()
                .satisfies(failure -> assertThat(failure).hasMessageContaining("orders-3")
                        .hasMessageContaining("copy:task#0.0").hasMessageContaining("transient.errors.timeout.ms"));
    }
}
