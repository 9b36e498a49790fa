package dev.quarantine.connect.sink;

import static dev.quarantine.connect.sink.TestData.committed;
import static dev.quarantine.connect.sink.TestData.records;
import static dev.quarantine.connect.sink.TestData.values;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.TransactionDescription;
import org.apache.kafka.clients.admin.TransactionState;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.protocol.ApiKeys;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.quarantine.sandbox.Await;
import dev.quarantine.sandbox.HoldingProxy;
import dev.quarantine.sandbox.LocalKafka;
import dev.quarantine.sandbox.ProxiedBroker;
import dev.quarantine.sandbox.TopicReader;

/**
 * A task's commit that times out on a real broker: a proxy in front of it ({@link HoldingProxy}, the broker's
 * advertised listener) holds the {@code EndTxn} request of the commit past the producer's {@code max.block.ms}, so
 * {@code commitTransaction} throws Kafka's TimeoutException while the coordinator has not decided, and the task can
 * not know whether its records committed (design: the slot's outcome Unknown, its partitions sought back, the slot
 * initialised again by a new producer, the progress read again after its init and before anything is written). Then
 * the held request reaches the coordinator after the slot's new {@code initTransactions} aborted the transaction (the
 * coordinator refuses it), before the task writes again, or while the new producer's init waits (the transaction
 * commits: the task must not write its records again). Each source record once on the target, read
 * {@code read_committed}, every way. No stage decides by timing: each waits for the fact it needs (a request held,
 * the coordinator's state).
 */
class CommitTimeoutIT {

    private static final Duration DEADLINE = Duration.ofSeconds(60);

    @RegisterExtension
    static final ProxiedBroker cluster = new ProxiedBroker();

    private final HoldingProxy proxy = cluster.proxy();
    private final LocalKafka kafka = cluster.kafka();
    private final Admin admin = cluster.admin();
    private TaskFixture fixture;
    private TopicPartition partition;
    private FakeSinkTaskContext context;

    @BeforeEach
    void topics() {
        // five records per transaction, begun ahead at the first (the interval is half the transaction timeout); a
        // commit gives up after max.block.ms, which bounds every other blocking call of the producers too (a new
        // producer's initTransactions waits while the coordinator aborts what the id left open): not lower
        fixture = new TaskFixture(kafka, "commit-timeout", "commit.max.records", "5", "commit.interval.ms", "30000",
                "target.producer.max.block.ms", "8000");
        fixture.createTopics();
        partition = new TopicPartition(fixture.source, 0);
        context = new FakeSinkTaskContext();
    }

    @AfterEach
    void stopTasks() {
        proxy.release(); // before the tasks' producers close
        fixture.stopTasks();
    }

    /**
     * The held {@code EndTxn} is sent to the coordinator only after the slot's new producer initialised the id (which
     * aborted the transaction) and began a transaction of its own with 5..8: the late commit of the old epoch must
     * neither commit 5..9 nor end the new transaction (Kafka 4.4's coordinator refuses an end of an open transaction
     * at another epoch than its own; the test sees each record once, not the coordinator's answer, which nobody
     * reads: the old producer is closed).
     */
    @Test
    void writesEachRecordOnceWhenTheCommitThatTimedOutReachesTheCoordinatorAfterTheSlotWasInitialisedAgain() {
        TransactionalKafkaSinkTask task = fixture.startAssigned(context, partition);
        task.put(records(fixture.source, 0, 0, 5));
        int heldBefore = proxy.heldRequests();
        TransactionDescription timedOut = commitTimesOutWith5To9(task);

        context.seeks.clear();
        task.put(records(fixture.source, 0, 5, 9)); // Connect delivers from the seek: the slot is initialised again
        assertThat(context.seeks).as("the progress read again after the init, the partition sought there")
                .containsExactly(Map.entry(partition, 5L));
        task.put(records(fixture.source, 0, 5, 9)); // delivered from that seek: sent ahead in a new transaction
        // the producer sends them on its own thread; the partition joins the transaction with the first
        TransactionDescription next = Await.value("the new producer's transaction of 5..8 open", DEADLINE,
                () -> Optional.of(described()).filter(d -> d.state() == TransactionState.ONGOING).orElse(null));
        assertThat(List.of(next.producerId(), (long) next.producerEpoch()))
                .as("the premise: the id initialised again, its open transaction aborted")
                .isNotEqualTo(List.of(timedOut.producerId(), (long) timedOut.producerEpoch()));
        assertThat(proxy.heldRequests()).as("the premise: the timed-out commit still held, nothing after it")
                .isEqualTo(heldBefore + 1);

        proxy.release();
        proxy.awaitForwarded(DEADLINE); // the old epoch's EndTxn(commit) on its way to the coordinator
        task.put(records(fixture.source, 0, 9, 15));

        assertCopiedOnce(LongStream.range(0, 15));
    }

    /**
     * The held {@code EndTxn} reaches the coordinator before the task writes again: the transaction of 5..9 commits
     * after the producer gave up on it. Connect delivers 5..9 again (the task sought back there); the task must read
     * the progress the late commit wrote and skip them.
     */
    @Test
    void writesEachRecordOnceWhenTheCommitThatTimedOutCompletesBeforeTheTaskWritesAgain() {
        TransactionalKafkaSinkTask task = fixture.startAssigned(context, partition);
        task.put(records(fixture.source, 0, 0, 5));
        commitTimesOutWith5To9(task);

        proxy.release();
        Await.until("the late commit completed", DEADLINE,
                () -> described().state() == TransactionState.COMPLETE_COMMIT);
        assertThat(values(committed(kafka, fixture.target))).as("the premise: 5..9 committed after the timeout")
                .containsExactlyElementsOf(expected(LongStream.range(0, 10)));

        context.seeks.clear();
        task.put(records(fixture.source, 0, 5, 10)); // Connect delivers from the seek
        assertThat(context.seeks).as("5..9 refused: the partition sought past the progress the late commit wrote")
                .containsExactly(Map.entry(partition, 10L));
        task.put(records(fixture.source, 0, 10, 15));

        assertCopiedOnce(LongStream.range(0, 15));
    }

    /**
     * The held {@code EndTxn} reaches the coordinator while the slot's new producer waits for its
     * {@code initTransactions} (held too): the transaction of 5..9 commits before the init fences the id. The task
     * must read the progress after the init, not before it (a read before would wait for the open transaction, or
     * miss its progress): it finds the late commit's progress and skips the redelivered 5..9.
     */
    @Test
    void readsTheProgressAfterItsInitWhenTheCommitThatTimedOutCompletesWhileTheInitWaits() throws Exception {
        TransactionalKafkaSinkTask task = fixture.startAssigned(context, partition);
        task.put(records(fixture.source, 0, 0, 5));
        int heldBefore = proxy.heldRequests();
        commitTimesOutWith5To9(task);

        context.seeks.clear();
        proxy.hold(ApiKeys.INIT_PRODUCER_ID);
        CompletableFuture<Void> put = CompletableFuture.runAsync(
                () -> task.put(records(fixture.source, 0, 5, 10))); // Connect delivers from the seek
        Await.until("the new producer's InitProducerId held", DEADLINE, () -> proxy.heldRequests() == heldBefore + 2);
        proxy.release(ApiKeys.END_TXN);
        Await.until("the late commit completed while the init waits", DEADLINE,
                () -> described().state() == TransactionState.COMPLETE_COMMIT);
        proxy.release();
        put.get(DEADLINE.toSeconds(), TimeUnit.SECONDS);

        assertThat(context.seeks).as("5..9 refused: the partition sought past the progress the late commit wrote")
                .containsExactly(Map.entry(partition, 10L));
        task.put(records(fixture.source, 0, 10, 15));
        assertCopiedOnce(LongStream.range(0, 15));
    }

    /**
     * Holds the coordinator's {@code EndTxn} requests and delivers 5..9, whose commit times out: the task puts
     * without failing, seeks the partition back to 5 (its committed progress) and the transaction stays open on the
     * coordinator. Answers the transaction as described then.
     */
    private TransactionDescription commitTimesOutWith5To9(TransactionalKafkaSinkTask task) {
        int heldBefore = proxy.heldRequests();
        proxy.hold(ApiKeys.END_TXN);
        task.put(records(fixture.source, 0, 5, 10));
        assertThat(proxy.heldRequests()).as("the premise: the commit's EndTxn held").isEqualTo(heldBefore + 1);
        assertThat(context.seeks).as("the outcome unknown: sought back to the committed progress")
                .containsExactly(Map.entry(partition, 5L));
        TransactionDescription open = described();
        assertThat(open.state()).as("the premise: the coordinator never got the commit").isEqualTo(
                TransactionState.ONGOING);
        assertThat(values(TopicReader.committedSoFar(kafka, fixture.target, DEADLINE))).as("nothing of 5..9 visible")
                .containsExactlyElementsOf(expected(LongStream.range(0, 5)));
        return open;
    }

    private TransactionDescription described() {
        String id = TestIds.holderOf(fixture, partition);
        try {
            return admin.describeTransactions(List.of(id)).description(id).get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("could not describe the transactions of " + id, e);
        }
    }

    private void assertCopiedOnce(LongStream offsets) {
        assertThat(values(committed(kafka, fixture.target))).as("each record once, read_committed")
                .containsExactlyElementsOf(expected(offsets));
    }

    private static List<String> expected(LongStream offsets) {
        return offsets.mapToObj(i -> "v" + i).toList();
    }
}
