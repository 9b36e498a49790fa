package dev.quarantine.replay;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;

import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.InvalidTxnStateException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;

import dev.quarantine.txn.TxnSendProducer;

/**
 * What {@link ReplayWriter#abortedSinceCommit()} tells {@link ProducerRestarts#ownership}: that the id's last ended
 * transaction is this writer's own abort. A review found it set before the abort was tried and never cleared by a
 * new transaction, so a zombie whose later transaction a newer instance's fence aborted took that abort for its own,
 * restarted and fenced the newer instance.
 */
class ReplayWriterAbortTest {

    private final MockProducer<byte[], byte[]> mock = new MockProducer<>(true, null, new ByteArraySerializer(),
            new ByteArraySerializer());
    private final ReplayWriter writer = new ReplayWriter(TxnSendProducer.wrap(mock, Map.of(
            ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:1", // nothing is sent: no connection is made
            ProducerConfig.TRANSACTIONAL_ID_CONFIG, "quarantine-replay-fix-1"), new ByteArraySerializer(),
            new ByteArraySerializer()), new ReplayConfig(settings()));

    @Test
    void anAbortThatWasAnsweredIsTheWritersOwnUntilItsNextTransactionBegins() {
        writer.init();
        writer.begin();
        writer.abort(new KafkaException("a send failed"));
        assertThat(writer.abortedSinceCommit()).isTrue();

        writer.begin();
        assertThat(writer.abortedSinceCommit()).as("a fence may abort the transaction begun since").isFalse();
    }

    @Test
    void anAbortThatThrewEndedNothingOfTheWriters() {
        writer.init();
        writer.begin();
        mock.abortTransactionException = new InvalidTxnStateException("the producer is in a fatal state");

        RuntimeException error = writer.abort(new KafkaException("the commit failed"));

        assertThat(writer.abortedSinceCommit()).isFalse();
        assertThat(error.getSuppressed()).hasSize(1);
    }

    private static Map<String, Object> settings() {
        Map<String, Object> settings = ReplayConfigTest.settings();
        settings.put(ReplayConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:1");
        return settings;
    }
}
