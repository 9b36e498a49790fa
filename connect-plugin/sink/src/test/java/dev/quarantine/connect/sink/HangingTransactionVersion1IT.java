package dev.quarantine.connect.sink;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.TransactionState;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

import dev.quarantine.connect.sink.cluster.HangingTransactions;
import dev.quarantine.connect.sink.progress.CommitCompletion;
import dev.quarantine.sandbox.LocalKafka;

/**
 * {@link HangingTransactionIT} on a broker formatted with {@code transaction.version=1} (no epoch bump at a
 * transaction's end; one epoch for a producer session), and what only version 1 can confuse.
 */
class HangingTransactionVersion1IT extends HangingTransactionIT {

    /** Attempts at leaving both transactions hanging, each on topics and an id of its own. */
    private static final int MAX_ATTEMPTS = 12;
    /** Broker kills after the second session's abort, with that session's producer, before starting over. */
    private static final int MAX_ABORT_KILLS = 4;

    @Override
    LocalKafka broker() {
        return LocalKafka.create().withFeature(HangingTransactions.TRANSACTION_VERSION, (short) 1);
    }

    /**
     * Issue 22 item 5, the widened abort epoch: session e-1 commits C (records 10..14 on target partition 0, progress
     * 15) and a restarting broker skips its markers; session e completes C on the progress partition only (as a task
     * does before reading the progress, with a commit of its own there), then aborts its own T (15..19 on target
     * partition 1, progress 20) and a restarting broker skips those markers too. Session e+1 finds T aborted at
     * epoch e and open on the progress partition; a coordinator-aborted transaction would have its records at e-1,
     * which is C's epoch on target partition 0: aborting that would lose C's records while the progress is past them.
     */
    @Test
    void neverAbortsAnEarlierSessionsCommittedTransactionLeftOpenInATargetPartition() throws Exception {
        leaveACommitAndALaterSessionsAbortHanging();
        short committedEpoch = openEpoch(new TopicPartition(target, 0));

        assertThat(copiedByATaskOpenedNow(OptionalLong.of(15), 20))
                .as("each record once: the commit of epoch %d left open on %s-0 was not aborted", committedEpoch,
                        target)
                .containsExactlyInAnyOrderElementsOf(valuesUpTo(20));
    }

    /**
     * Leaves C (a commit) open on target partition 0 and T (a later session's abort) open on the progress partition,
     * each by killing the broker right after the transaction ended until its coordinator completed it without its
     * markers; starts over on topics of its own when C committed normally, and after {@value #MAX_ABORT_KILLS} kills
     * that left T complete.
     */
    private void leaveACommitAndALaterSessionsAbortHanging() throws Exception {
        for (int attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
            copyTenOnTopicsOfItsOwn(attempt, false, 2);
            if (commitAndKillTheBroker() && completeOnProgressThenAbortAndKillTheBroker()) {
                return;
            }
        }
        throw new AssertionError("no commit and later abort were both left hanging in " + MAX_ATTEMPTS
                + " attempts");
    }

    /** Session e-1: C, committed; whether it was left open on target partition 0 and the progress partition. */
    private boolean commitAndKillTheBroker() throws Exception {
        try (KafkaProducer<byte[], byte[]> producer = producer()) {
            producer.initTransactions();
            producer.beginTransaction();
            sendTheBatchAndItsProgress(producer, 10, 15);
            producer.commitTransaction();
            kafka.kill();
            producer.close(Duration.ZERO);
        }
        kafka.restart();
        return hanging(TransactionState.COMPLETE_COMMIT);
    }

    /**
     * Session e: completes C on the progress partition with a commit of its own there (a tombstone under the
     * completion key: no completion left standing), then writes T and aborts it, killing the broker after each abort
     * until T is left open on the progress partition. One producer throughout: it outlives the broker's restarts, so every T has epoch e.
     */
    private boolean completeOnProgressThenAbortAndKillTheBroker() throws Exception {
        try (KafkaProducer<byte[], byte[]> producer = producer()) {
            producer.initTransactions();
            producer.beginTransaction();
            producer.send(CommitCompletion.tombstone(progress, hangingId));
            producer.commitTransaction();
            for (int kill = 0; kill < MAX_ABORT_KILLS; kill++) {
                producer.beginTransaction();
                sendTheBatchAndItsProgress(producer, 1, 15, 20);
                producer.flush(); // written, so that the abort has markers to write
                producer.abortTransaction();
                kafka.kill();
                kafka.restart();
                if (hanging(TransactionState.COMPLETE_ABORT)) {
                    return true;
                }
            }
            return false;
        }
    }

    private short openEpoch(TopicPartition partition) throws Exception {
        try (Admin admin = kafka.admin()) {
            assertThat(open(admin, partition)).as("C is open on %s", partition).isTrue();
            return (short) admin.describeProducers(List.of(partition)).partitionResult(partition)
                    .get(30, TimeUnit.SECONDS).activeProducers().get(0).producerEpoch();
        }
    }
}
