package dev.quarantine.connect.sink.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.concurrent.ExecutionException;

import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.internals.KafkaFutureImpl;
import org.apache.kafka.connect.errors.ConnectException;
import org.junit.jupiter.api.Test;

class AdminWaitTest {

    private static final Duration TIMEOUT = Duration.ofMillis(50);

    @Test
    void answersWhatTheCallAnswered() throws ExecutionException {
        assertThat(AdminWait.await(KafkaFuture.completedFuture("answer"), TIMEOUT, "describe topic orders"))
                .isEqualTo("answer");
    }

    @Test
    void aFailedCallEndsWithItsFailureAsTheCause() {
        KafkaFutureImpl<String> future = new KafkaFutureImpl<>();
        TopicAuthorizationException refused = new TopicAuthorizationException("no");
        future.completeExceptionally(refused);

        assertThatThrownBy(() -> AdminWait.await(future, TIMEOUT, "describe topic orders"))
                .isInstanceOf(ExecutionException.class).cause().isSameAs(refused);
    }

    @Test
    void noAnswerInTimeEndsAsKafkasRetriableTimeoutNamingTheCall() {
        assertThatThrownBy(() -> AdminWait.await(new KafkaFutureImpl<String>(), TIMEOUT, "describe topic orders"))
                .isInstanceOf(ExecutionException.class).cause().isInstanceOf(TimeoutException.class)
                .hasMessage("Could not describe topic orders: no answer within 50 ms");
    }

    @Test
    void anInterruptEndsTheWaitKeepingTheInterruptFlag() {
        Thread.currentThread().interrupt();
        try {
            assertThatThrownBy(() -> AdminWait.await(new KafkaFutureImpl<String>(), TIMEOUT, "describe topic orders"))
                    .isInstanceOf(ConnectException.class)
                    .hasMessage("Interrupted while trying to describe topic orders");
            assertThat(Thread.currentThread().isInterrupted()).isTrue();
        } finally {
            Thread.interrupted();
        }
    }
}
