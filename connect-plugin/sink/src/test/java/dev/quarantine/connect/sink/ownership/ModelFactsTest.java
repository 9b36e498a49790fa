package dev.quarantine.connect.sink.ownership;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

import dev.quarantine.connect.sink.cluster.LastTransaction;
import dev.quarantine.connect.sink.ownership.ModelCoordinator.Version;
import dev.quarantine.connect.sink.ownership.ModelPartition.Fate;
import dev.quarantine.connect.sink.ownership.TransactionFacts.Aborted;
import dev.quarantine.connect.sink.ownership.TransactionFacts.Answer;
import dev.quarantine.connect.sink.ownership.TransactionFacts.OpenTransaction;
import dev.quarantine.sandbox.MovableClock;
import dev.quarantine.txn.TxnSendOption;

/** The model's admin facts (design 5.1 {@code TransactionFacts}) for the repairs of 2.7, with row 26's premise. */
class ModelFactsTest {

    private static final String T0 = "copy:task#0.0";
    private static final TopicPartition X = new TopicPartition("copy.orders", 0);

    private final ModelCoordinator model = new ModelCoordinator(Version.V2, Short.MAX_VALUE, new MovableClock(),
            Duration.ofMinutes(1));
    private final ModelFacts facts = new ModelFacts(model);

    @Test
    void theLastTransactionNamesTheEpochItsRecordsCarry() {
        ProducerEpoch records = commit(initialisedHolder(), "a");

        assertThat(facts.describe(Set.of(T0, "copy:task#9.0"))).isEqualTo(new Answer.Known<>(
                Map.of(T0, new LastTransaction(false, records.producerId(), records.epoch()))));
    }

    @Test
    void aCommitLeftOpenBySkippedMarkersIsOpenOnItsPartitionAndListedByProducerId() {
        ProducerEpoch records = commitLeftOpenOnX(initialisedHolder(), "c");

        assertThat(facts.openOn(List.of(X))).isEqualTo(new Answer.Known<>(List.of(new OpenTransaction(X, records, 0))));
        assertThat(facts.transactionalIdOf(records.producerId())).isEqualTo(new Answer.Known<>(Optional.of(T0)));
    }

    @Test
    void anAbortIsEpochExactAndAbortsNothingOfALaterEpoch() {
        // row 26's premise: the facts name the epoch before, the open range on X carries a later one
        ModelProducer holder = initialisedHolder();
        ProducerEpoch first = commit(holder, "c1");
        ProducerEpoch second = commitLeftOpenOnX(holder, "c2");

        assertThat(facts.abort(new OpenTransaction(X, first, 1))).isInstanceOf(Answer.Unknown.class);
        assertThat(model.partition(X).fate(1)).isEqualTo(Fate.OPEN);
        assertThat(facts.abort(new OpenTransaction(X, second, 1))).isEqualTo(new Answer.Known<>(Aborted.ABORTED));
        assertThat(model.partition(X).fate(1)).isEqualTo(Fate.ABORTED);
        assertThat(facts.abort(new OpenTransaction(X, second, 1))).isEqualTo(new Answer.Known<>(Aborted.NOTHING_OPEN));
        assertThat(model.partition(X).readCommitted()).containsExactly("c1");
    }

    /** The producer of {@link #T0}, initialised. */
    private ModelProducer initialisedHolder() {
        ModelProducer holder = new ModelProducer(model, T0);
        holder.init();
        return holder;
    }

    /** Commits a transaction of {@code value} on X; returns the epoch its records carry. */
    private static ProducerEpoch commit(ModelProducer holder, String value) {
        ProducerEpoch records = write(holder, value);
        holder.commit();
        return records;
    }

    /** As {@link #commit}, its markers skipped on X: the commit is left open there. */
    private ProducerEpoch commitLeftOpenOnX(ModelProducer holder, String value) {
        ProducerEpoch records = write(holder, value);
        model.skipMarkers(X, records.producerId());
        holder.commit();
        return records;
    }

    private static ProducerEpoch write(ModelProducer producer, String value) {
        producer.begin();
        producer.send(new ProducerRecord<>(X.topic(), X.partition(), null, value.getBytes(UTF_8)),
                TxnSendOption.IGNORE_SEND_ERRORS);
        return producer.current();
    }
}
