package dev.quarantine.connect.sink.ownership;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import org.apache.kafka.clients.producer.ProducerRecord;

import dev.quarantine.connect.sink.progress.OwnershipRecord;
import dev.quarantine.txn.TxnSendOption;

/**
 * The seams of one party of a harness test, each call labelled {@code <party>.<step>} and run when the {@link Script}
 * says (design 5.2): {@code init}, {@code send}, {@code commit}, {@code abort}, {@code fence}, {@code read1} (claims),
 * {@code read0} (progress). {@code begin} and {@code close} are local to a producer and not labelled. Without a
 * script (the set-up before it) every call goes straight to the model.
 */
final class Labelled {

    private final String party;
    private volatile Script script;
    private final List<Set<String>> fences = new ArrayList<>();

    Labelled(String party) {
        this.party = party;
    }

    /** From now on every call waits for its label in {@code script}. */
    void follow(Script script) {
        this.script = script;
    }

    /** The id sets fenced (or tried) by this party, in order. */
    synchronized List<Set<String>> fences() {
        return List.copyOf(fences);
    }

    SlotProducer producer(SlotProducer model) {
        return new SlotProducer() {
            @Override
            public Init init() {
                return call("init", model::init);
            }

            @Override
            public void begin() {
                model.begin();
            }

            @Override
            public Sent send(ProducerRecord<byte[], byte[]> record, TxnSendOption option) {
                return call("send", () -> model.send(record, option));
            }

            @Override
            public End commit() {
                return call("commit", model::commit);
            }

            @Override
            public End abort() {
                return call("abort", model::abort);
            }

            @Override
            public void close(Duration timeout) {
                model.close(timeout);
            }
        };
    }

    Fencer fencer(Fencer model) {
        return (ids, bound) -> {
            synchronized (this) {
                fences.add(Set.copyOf(ids));
            }
            return call("fence", () -> model.fence(ids, bound));
        };
    }

    OwnershipLog log(OwnershipLog model) {
        return new OwnershipLog() {
            @Override
            public LogRead<OwnershipRecord> claims(Duration bound) {
                return call("read1", () -> model.claims(bound));
            }

            @Override
            public LogRead<ProgressMark> progress(Duration bound) {
                return call("read0", () -> model.progress(bound));
            }
        };
    }

    private <T> T call(String step, java.util.function.Supplier<T> model) {
        Script now = script;
        return now == null ? model.get() : now.call(party + "." + step, model);
    }
}
