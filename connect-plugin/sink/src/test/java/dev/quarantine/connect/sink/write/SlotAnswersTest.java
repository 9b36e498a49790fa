package dev.quarantine.connect.sink.write;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import org.apache.kafka.common.errors.ProducerFencedException;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.connect.errors.ConnectException;
import org.junit.jupiter.api.Test;

import dev.quarantine.connect.sink.ownership.SlotProducer.End;
import dev.quarantine.connect.sink.ownership.SlotProducer.Sent;
import dev.quarantine.connect.sink.write.TaskTransaction.Outcome;

class SlotAnswersTest {

    @Test
    void aSendThatWasLeftOutOrFailedCarriesItsCause() {
        RecordTooLargeException tooLarge = new RecordTooLargeException("x");
        ProducerFencedException fenced = new ProducerFencedException("x");
        assertThat(SlotAnswers.cause(new Sent.Skipped(tooLarge))).isSameAs(tooLarge);
        assertThat(SlotAnswers.cause(new Sent.Failed(fenced))).isSameAs(fenced);
    }

    @Test
    void anAcceptedSendHasNoCause() {
        assertThatThrownBy(() -> SlotAnswers.cause(new Sent.Accepted(new CompletableFuture<>())))
                .isInstanceOf(IllegalStateException.class).hasMessage("an accepted send has no cause");
    }

    @Test
    void everyEndButDoneCarriesItsCause() {
        TimeoutException cause = new TimeoutException("x");
        assertThat(SlotAnswers.cause(new End.Fenced(cause))).isSameAs(cause);
        assertThat(SlotAnswers.cause(new End.MaybeDone(cause))).isSameAs(cause);
        assertThat(SlotAnswers.cause(new End.Transient(cause))).isSameAs(cause);
        assertThat(SlotAnswers.cause(new End.Fatal(cause))).isSameAs(cause);
        assertThatThrownBy(() -> SlotAnswers.cause(new End.Done()))
                .isInstanceOf(IllegalStateException.class).hasMessage("a transaction that ended has no cause");
    }

    @Test
    void aFailedOutcomeCarriesItsCauseAndACommittedOneRefusesWithTheGivenMessage() {
        ConnectException cause = new ConnectException("x");
        assertThat(SlotAnswers.causeOf(new Outcome.Fatal(cause), "none")).isSameAs(cause);
        assertThat(SlotAnswers.causeOf(new Outcome.Transient(cause), "none")).isSameAs(cause);
        assertThatThrownBy(() -> SlotAnswers.causeOf(new Outcome.Committed(Map.of(), List.of()),
                "none")).isInstanceOf(IllegalStateException.class).hasMessage("none");
    }
}
