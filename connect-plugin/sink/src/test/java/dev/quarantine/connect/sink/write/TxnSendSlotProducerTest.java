package dev.quarantine.connect.sink.write;

import static dev.quarantine.sandbox.Utf8.bytes;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.function.Function;

import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.errors.TransactionalIdAuthorizationException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;

import dev.quarantine.connect.sink.ownership.ProducerEpoch;
import dev.quarantine.connect.sink.ownership.SlotProducer.End;
import dev.quarantine.connect.sink.ownership.SlotProducer.Init;
import dev.quarantine.connect.sink.ownership.SlotProducer.Sent;
import dev.quarantine.txn.TxnSendOption;

/** The table of {@link TxnSendSlotProducer}: each call's exception as the answer it gives, row by row. */
class TxnSendSlotProducerTest {

    private static final String ID = "sink:task#0.0";
    private final MockProducer<byte[], byte[]> mock = new MockProducer<>(true, null, new ByteArraySerializer(),
            new ByteArraySerializer());
    private final TxnSendSlotProducer slot = Slots.over(mock, ID, 1000);

    @Test
    void initAnswersTheEpochDescribedRightAfterInitTransactions() {
        assertThat(slot.init()).isEqualTo(new Init.Done(Slots.EPOCH));
        assertThat(mock.transactionInitialized()).isTrue();
    }

    @Test
    void initAnswersFencedTransientOrFatalByItsException() {
        assertThat(initFailingWith(new ProducerFencedException("newer"))).isInstanceOf(Init.Fenced.class);
        assertThat(initFailingWith(new TimeoutException("coordinator busy"))).isInstanceOf(Init.Transient.class);
        assertThat(initFailingWith(new TransactionalIdAuthorizationException("no WRITE")))
                .isInstanceOf(Init.Fatal.class);
    }

    @Test
    void initAnswersTransientWhenTheEpochCannotBeDescribed() {
        Function<String, ProducerEpoch> failing = id -> {
            throw new TimeoutException("describeTransactions of " + id);
        };
        TxnSendSlotProducer undescribed = new TxnSendSlotProducer(Slots.wrapped(mock, ID, 1000), ID, failing);

        assertThat(undescribed.init()).isInstanceOf(Init.Transient.class);
    }

    @Test
    void sendAnswersSkippedForARecordTheUpFrontChecksLeaveOutAndAcceptedOtherwise() {
        slot.init();
        slot.begin();

        assertThat(slot.send(new ProducerRecord<>("copy.orders", 0, null, new byte[2000]),
                TxnSendOption.IGNORE_SEND_ERRORS)).isInstanceOfSatisfying(Sent.Skipped.class,
                        skipped -> assertThat(skipped.cause()).isInstanceOf(RecordTooLargeException.class));
        assertThat(slot.send(new ProducerRecord<>("copy.orders", 0, null, bytes("v")),
                TxnSendOption.IGNORE_SEND_ERRORS)).isInstanceOf(Sent.Accepted.class);
    }

    @Test
    void sendAnswersFailedWhenTheProducerRefusesTheCall() {
        slot.init();

        assertThat(slot.send(new ProducerRecord<>("copy.orders", 0, null, bytes("v")),
                TxnSendOption.IGNORE_SEND_ERRORS)).as("no transaction begun").isInstanceOf(Sent.Failed.class);
    }

    @Test
    void commitAnswersByItsException() {
        assertThat(commitFailingWith(null)).isInstanceOf(End.Done.class);
        assertThat(commitFailingWith(new ProducerFencedException("newer"))).isInstanceOf(End.Fenced.class);
        assertThat(commitFailingWith(new TimeoutException("no answer"))).isInstanceOf(End.MaybeDone.class);
        assertThat(commitFailingWith(new KafkaException("error state", new RecordTooLargeException("r"))))
                .as("an abortable error state").isInstanceOf(End.Transient.class);
        assertThat(commitFailingWith(new TransactionalIdAuthorizationException("no WRITE")))
                .isInstanceOf(End.Fatal.class);
    }

    private Init initFailingWith(RuntimeException error) {
        MockProducer<byte[], byte[]> failing = new MockProducer<>(true, null, new ByteArraySerializer(),
                new ByteArraySerializer());
        failing.initTransactionException = error;
        return Slots.over(failing, ID, 1000).init();
    }

    private End commitFailingWith(RuntimeException error) {
        MockProducer<byte[], byte[]> failing = new MockProducer<>(true, null, new ByteArraySerializer(),
                new ByteArraySerializer());
        TxnSendSlotProducer failingSlot = Slots.over(failing, ID, 1000);
        failingSlot.init();
        failingSlot.begin();
        failing.commitTransactionException = error;
        return failingSlot.commit();
    }
}
