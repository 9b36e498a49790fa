package dev.quarantine.connect.sink;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

import org.apache.kafka.clients.admin.TransactionState;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.serialization.ByteArraySerializer;

import dev.quarantine.connect.sink.cluster.WrittenCheck.AtFirst;

/**
 * The producers of a task's slot ({@link TaskFixture#handler}), each of which stages, once armed, what the cluster
 * does to the slot's next transaction end: no stage decides by timing, each waits for the fact it needs (the
 * coordinator's completed state, the leaders back). Every end first flushes, so the transaction's records are on
 * their partitions before anything happens to it.
 */
final class StagedEnds implements Function<Map<String, Object>, Producer<byte[], byte[]>> {

    enum Stage {
        /** The commit completes while node 2 is down: its markers are skipped on node 2's partitions. */
        SKIP_MARKERS_AT_COMMIT,
        /** {@code Admin.fenceProducers} on the slot's id between the sends and the commit: the fence aborts it. */
        FENCE_BEFORE_COMMIT,
        /**
         * The commit times out without reaching the coordinator ({@code max.block.ms}), the transaction left ongoing
         * for the id's next {@code initTransactions} to abort.
         */
        COMMIT_TIMES_OUT,
        /**
         * The abort times out without reaching the coordinator: the producer is broken, the transaction left ongoing
         * for the id's next {@code initTransactions} to abort.
         */
        ABORT_TIMES_OUT,
        /**
         * The next {@code initTransactions} runs while node 2 is down: the transaction it aborts has its markers
         * skipped on node 2's partitions.
         */
        SKIP_MARKERS_AT_INIT
    }

    private final TwoBrokers cluster;
    private final TopicPartition leaderless;
    private final Set<Stage> armed = ConcurrentHashMap.newKeySet();
    private final List<Stage> staged = Collections.synchronizedList(new ArrayList<>());
    private final List<Optional<AtFirst>> afterSkips = Collections.synchronizedList(new ArrayList<>());

    /** {@code leaderless}: the partition on node 2 whose open transaction each skip is followed by a look at. */
    StagedEnds(TwoBrokers cluster, TopicPartition leaderless) {
        this.cluster = cluster;
        this.leaderless = leaderless;
    }

    /** Stages {@code stage} at the next transaction end it applies to. */
    void arm(Stage stage) {
        armed.add(stage);
    }

    /** The stages run so far, in order. */
    List<Stage> staged() {
        return List.copyOf(staged);
    }

    /**
     * After each skip, before the task went on: what a {@code read_committed} reader found at the first record of the
     * transaction open on the leaderless partition (empty: nothing open there), the premise of the test.
     */
    List<Optional<AtFirst>> afterSkips() {
        return List.copyOf(afterSkips);
    }

    @Override
    public Producer<byte[], byte[]> apply(Map<String, Object> configs) {
        String id = (String) configs.get(ProducerConfig.TRANSACTIONAL_ID_CONFIG);
        return new KafkaProducer<>(configs, new ByteArraySerializer(), new ByteArraySerializer()) {
            @Override
            public void initTransactions() {
                if (take(Stage.SKIP_MARKERS_AT_INIT)) {
                    cluster.whileLeaderless(super::initTransactions); // answered once the abort has completed
                    afterSkips.add(cluster.atOpenTransaction(leaderless));
                } else {
                    super.initTransactions();
                }
            }

            @Override
            public void commitTransaction() {
                if (take(Stage.SKIP_MARKERS_AT_COMMIT)) {
                    flush();
                    cluster.whileLeaderless(() -> {
                        super.commitTransaction();
                        cluster.awaitCompleted(id, TransactionState.COMPLETE_COMMIT);
                    });
                    afterSkips.add(cluster.atOpenTransaction(leaderless));
                } else if (take(Stage.FENCE_BEFORE_COMMIT)) {
                    flush();
                    fence(id);
                    super.commitTransaction();
                } else if (take(Stage.COMMIT_TIMES_OUT)) {
                    flush();
                    throw new TimeoutException("Timeout expired after 60000ms while awaiting EndTxn(true)");
                } else {
                    super.commitTransaction();
                }
            }

            @Override
            public void abortTransaction() {
                if (take(Stage.ABORT_TIMES_OUT)) {
                    throw new TimeoutException("Timeout expired after 60000ms while awaiting EndTxn(false)");
                }
                super.abortTransaction();
            }
        };
    }

    private boolean take(Stage stage) {
        if (armed.remove(stage)) {
            staged.add(stage);
            return true;
        }
        return false;
    }

    private void fence(String id) {
        try {
            cluster.admin.fenceProducers(List.of(id)).all().get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("could not fence " + id + " from outside", e);
        }
    }
}
