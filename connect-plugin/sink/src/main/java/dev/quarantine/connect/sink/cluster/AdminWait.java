package dev.quarantine.connect.sink.cluster;

import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.connect.errors.ConnectException;

/**
 * One wait for an answer of the target cluster's admin client, at most a timeout. A call that failed and a call not
 * answered in time end the same way, as an {@link ExecutionException} whose cause the caller classifies once (no
 * answer in time is Kafka's retriable {@link TimeoutException}); an interrupt ends the task's work at once.
 */
final class AdminWait {

    private AdminWait() {
    }

    /**
     * The answer of {@code future}, the call that does {@code what} ("describe topic orders").
     *
     * @throws ExecutionException its cause the call's failure, or a {@link TimeoutException} after {@code timeout}
     * @throws ConnectException   when interrupted (the interrupt flag kept), naming {@code what}
     */
    static <T> T await(KafkaFuture<T> future, Duration timeout, String what) throws ExecutionException {
        try {
            return future.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (java.util.concurrent.TimeoutException e) {
            throw new ExecutionException(new TimeoutException("Could not " + what + ": no answer within "
                    + timeout.toMillis() + " ms", e));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ConnectException("Interrupted while trying to " + what, e);
        }
    }
}
