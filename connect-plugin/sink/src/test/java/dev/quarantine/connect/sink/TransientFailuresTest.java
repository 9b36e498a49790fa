package dev.quarantine.connect.sink;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;

import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.errors.RetriableException;
import org.junit.jupiter.api.Test;

import dev.quarantine.connect.sink.progress.SourceTopics;

class TransientFailuresTest {

    private Instant now = Instant.parse("2026-01-01T00:00:00Z");
    private final TransientFailures failures = new TransientFailures(Duration.ofMinutes(5), new Clock() {
        @Override
        public ZoneOffset getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    });

    @Test
    void handsTransientFailuresBackToConnectWithinTheBudget() {
        RetriableException failure = new RetriableException("timeout");
        failures.failed(failure);
        now = now.plus(Duration.ofMinutes(5));

        assertThat(failures.failed(failure)).isSameAs(failure);
    }

    @Test
    void failsTheTaskNamingTheSettingOnceFailingLongerThanTheBudget() {
        failures.failed(new RetriableException("first"));
        now = now.plus(Duration.ofMinutes(6));

        RuntimeException fatal = failures.failed(new RetriableException("Could not commit the batch of orders-0"));

        assertThat(fatal).isInstanceOf(ConnectException.class).isNotInstanceOf(RetriableException.class)
                .hasMessageContaining("transient.errors.timeout.ms").hasMessageContaining("orders-0");
    }

    @Test
    void namesTheClusterToCheckByTheFailure() {
        failures.failed(new RetriableException("first"));
        now = now.plus(Duration.ofMinutes(6));

        RuntimeException target = failures.failed(new RetriableException("Could not read the progress"));
        RuntimeException source = failures.failed(new RetriableException("Could not check the source topics",
                new SourceTopics.Unanswered("the source cluster (consumer.override.bootstrap.servers)",
                        "describing source topic orders", new TimeoutException("no node"))));

        assertThat(target).hasMessageContaining("Check the target cluster and converters")
                .hasMessageNotContaining("source cluster");
        assertThat(source).hasMessageContaining("Check the source cluster (consumer.override.bootstrap.servers)")
                .hasMessageNotContaining("Check the target cluster");
    }

    @Test
    void aSuccessfulPutStartsTheBudgetAgain() {
        failures.failed(new RetriableException("first"));
        now = now.plus(Duration.ofMinutes(4));
        failures.succeeded();
        now = now.plus(Duration.ofMinutes(4));
        RetriableException again = new RetriableException("again");

        assertThat(failures.failed(again)).isSameAs(again);
    }
}
