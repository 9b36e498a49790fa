package dev.quarantine.connect.sink.write;

import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.errors.RetriableException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.quarantine.connect.sink.cluster.HangingTransactionCheck;
import dev.quarantine.connect.sink.cluster.LastTransaction;
import dev.quarantine.connect.sink.ownership.SlotProducer;
import dev.quarantine.connect.sink.progress.CommitCompletion;
import dev.quarantine.txn.TxnSendOption;

/**
 * A slot's producer whose {@code initTransactions} repairs what the id's last transaction left open where a broker
 * skipped its markers (docs/design/sink-ownership.md 2.7, the first two rows; {@link HangingTransactionCheck}):
 *
 * <table>
 * <caption>Around each init of the slot's id</caption>
 * <tr><th>when</th><th>what</th><th>why</th></tr>
 * <tr><td>before the init</td><td>the id's last transaction described (kept until the repairs after an init
 *     succeeded: an init that succeeds and then a repair that fails for now is not described again, the next init's
 *     description would name that init instead)</td><td>the init forgets it</td></tr>
 * <tr><td>after the init, the last one aborted</td><td>its ranges still open on the target topics of the slot's
 *     partitions, the dead-letter and the progress topic aborted ({@code Admin.abortTransaction})</td><td>the id's
 *     next commit marker would otherwise commit them next to their copies written again</td></tr>
 * <tr><td>after the init, the last one committed and still open on progress partition 0</td><td>completed by a
 *     commit of the slot writing there (the tombstone of the id's {@link CommitCompletion} key)</td><td>it holds back
 *     every read of partition 0; what it left open on target partitions rule V then finds and redoes</td></tr>
 * </table>
 *
 * A repair that fails for now answers the init {@link Init.Transient} (the slot initialises again at the next put);
 * one refused for good answers {@link Init.Fatal}.
 */
final class HangingRepair implements SlotProducer {

    private static final Logger log = LoggerFactory.getLogger(HangingRepair.class);

    private final SlotProducer slot;
    private final String id;
    private final HangingTransactionCheck hanging;
    private final Supplier<Collection<String>> topics;
    private final String progressTopic;
    /** The id's last transaction was described and its repairs are not done yet. */
    private boolean described;

    /** {@code topics}: the target and dead-letter topics the slot writes now (the progress topic is added). */
    HangingRepair(SlotProducer slot, String id, HangingTransactionCheck hanging, Supplier<Collection<String>> topics,
                  String progressTopic) {
        this.slot = slot;
        this.id = id;
        this.hanging = hanging;
        this.topics = topics;
        this.progressTopic = progressTopic;
    }

    @Override
    public Init init() {
        try {
            if (!described) {
                HangingTransactionCheck.LastTransactions last = hanging.describeLastTransactions(List.of(id));
                Optional<RuntimeException> failed = last.failed().values().stream().findFirst();
                if (failed.isPresent()) {
                    throw failed.get();
                }
                described = true;
            }
        } catch (RetriableException e) {
            return new Init.Transient(e);
        } catch (ConnectException e) {
            return new Init.Fatal(e);
        }
        Init init = slot.init();
        if (!(init instanceof Init.Done)) {
            return init;
        }
        try {
            java.util.Set<String> written = new java.util.TreeSet<>(topics.get());
            written.add(progressTopic);
            hanging.abortBeforeWriting(id, written);
            Optional<LastTransaction> leftOpen = hanging.lastCommitLeftOpen(id);
            if (leftOpen.isPresent()) {
                Optional<Throwable> failed = complete(leftOpen.get());
                if (failed.isPresent()) {
                    return new Init.Transient(failed.get());
                }
            }
        } catch (RetriableException e) {
            return new Init.Transient(e);
        } catch (ConnectException e) {
            return new Init.Fatal(e);
        }
        hanging.forget(id);
        described = false;
        return init;
    }

    /** Commits a transaction of the slot on progress partition 0: its marker completes {@code left} there. */
    private Optional<Throwable> complete(LastTransaction left) {
        log.warn("The committed last transaction of {} is still open on {}-0 (a broker skipped its marker there);"
                + " completing it with a commit of the slot before reading the progress ({})", id, progressTopic, left);
        ProducerRecord<byte[], byte[]> tombstone = CommitCompletion.tombstone(progressTopic, id);
        slot.begin();
        Sent sent = slot.send(tombstone, TxnSendOption.NONE);
        if (!(sent instanceof Sent.Accepted)) {
            slot.abort();
            return Optional.of(SlotAnswers.cause(sent));
        }
        End end = slot.commit();
        if (end instanceof End.Done) {
            return Optional.empty();
        }
        if (!(end instanceof End.Fenced || end instanceof End.MaybeDone)) {
            slot.abort();
        }
        return Optional.of(SlotAnswers.cause(end));
    }

    @Override
    public void begin() {
        slot.begin();
    }

    @Override
    public Sent send(ProducerRecord<byte[], byte[]> record, TxnSendOption option) {
        return slot.send(record, option);
    }

    @Override
    public void flush() {
        slot.flush();
    }

    @Override
    public End commit() {
        return slot.commit();
    }

    @Override
    public End abort() {
        return slot.abort();
    }

    @Override
    public void close(Duration timeout) {
        slot.close(timeout);
    }
}
