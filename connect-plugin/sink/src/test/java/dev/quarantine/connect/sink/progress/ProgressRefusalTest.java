package dev.quarantine.connect.sink.progress;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Set;

import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.InvalidTimestampException;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.junit.jupiter.api.Test;

/** The table of {@link ProgressRefusal}, row by row. */
class ProgressRefusalTest {

    private static final String PROGRESS = "sink.progress";
    private static final KafkaException COLLATERAL = new KafkaException("Failed to append record because it was part"
            + " of a batch which had one more more invalid records");

    @Test
    void aTransientOrCollateralErrorIsNeverTheProgressRecordsOwn() {
        assertThat(ProgressRefusal.isOwn(new TimeoutException("x"), PROGRESS, List.of())).isFalse();
        assertThat(ProgressRefusal.isOwn(COLLATERAL, PROGRESS, List.of())).isFalse();
    }

    @Test
    void aDenialIsItsOwnOnlyWhenItNamesTheProgressTopic() {
        assertThat(ProgressRefusal.isOwn(new TopicAuthorizationException(Set.of(PROGRESS)), PROGRESS,
                List.of(new RecordTooLargeException("x")))).isTrue();
        TopicAuthorizationException targetDenied = new TopicAuthorizationException(Set.of("copy.orders"));
        assertThat(ProgressRefusal.isOwn(targetDenied, PROGRESS, List.of())).isFalse();
    }

    @Test
    void aRejectionIsTheRecordsWhenARecordOfTheTransactionWasRejectedToo() {
        InvalidTimestampException progressError = new InvalidTimestampException("rejected");
        assertThat(ProgressRefusal.isOwn(progressError, PROGRESS, List.of(new InvalidTimestampException("rejected"))))
                .as("the producer failed the unsent progress record with a poison's rejection (another instance)")
                .isFalse();
        assertThat(ProgressRefusal.isOwn(progressError, PROGRESS, List.of(COLLATERAL, progressError))).isFalse();
        assertThat(ProgressRefusal.isOwn(progressError, PROGRESS,
                List.of(new TopicAuthorizationException(Set.of("copy.orders"))))).as("a fatal record error").isFalse();
    }

    @Test
    void aRejectionIsItsOwnWhenNoRecordOfTheTransactionWasRejected() {
        RecordTooLargeException tooLarge = new RecordTooLargeException("progress topic max.message.bytes");
        assertThat(ProgressRefusal.isOwn(tooLarge, PROGRESS, List.of())).isTrue();
        assertThat(ProgressRefusal.isOwn(tooLarge, PROGRESS, List.of(COLLATERAL, new TimeoutException("x"))))
                .isTrue();
    }
}
