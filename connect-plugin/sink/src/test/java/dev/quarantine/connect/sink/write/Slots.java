package dev.quarantine.connect.sink.write;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;

import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;

import dev.quarantine.connect.sink.ownership.ProducerEpoch;
import dev.quarantine.connect.sink.ownership.SlotProducer;
import dev.quarantine.txn.TxnSendConfig;
import dev.quarantine.txn.TxnSendOption;
import dev.quarantine.txn.TxnSendProducer;

/** Slot producers over a MockProducer for unit tests, and a slot that records the calls made on it, in order. */
final class Slots {

    static final ProducerEpoch EPOCH = new ProducerEpoch(4000, (short) 3);

    private Slots() {
    }

    /** A {@link TxnSendSlotProducer} of {@code id} over {@code mock}, whose up-front checks refuse what is larger. */
    static TxnSendSlotProducer over(MockProducer<byte[], byte[]> mock, String id, int maxRequestBytes) {
        return new TxnSendSlotProducer(wrapped(mock, id, maxRequestBytes), id, described -> EPOCH);
    }

    static TxnSendProducer<byte[], byte[]> wrapped(MockProducer<byte[], byte[]> mock, String id, int maxRequestBytes) {
        Map<String, Object> configs = new HashMap<>();
        configs.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, id);
        configs.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:9");
        configs.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        configs.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        configs.put(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, maxRequestBytes);
        configs.put(TxnSendConfig.TOPIC_CHECKS_ENABLE_CONFIG, false);
        return TxnSendProducer.wrap(mock, configs);
    }

    /** Records each call as text ("begin", "send topic", "commit", "abort"), and whether sends before were done. */
    static final class Recording implements SlotProducer {
        final List<String> calls = new CopyOnWriteArrayList<>();
        /** Per progress send: whether every send before it had its answer. */
        final List<Boolean> earlierSendsDoneAtProgress = new CopyOnWriteArrayList<>();
        /** An answer given instead of the slot's, for the records it names. */
        Function<ProducerRecord<byte[], byte[]>, Optional<Sent>> script = record -> Optional.empty();
        /** The topics of each {@link #prepare}, in order, with what {@link #calls} held then. */
        final List<String> prepared = new CopyOnWriteArrayList<>();
        /** Run at each prepare (a test's interrupt). */
        Runnable onPrepare = () -> { };
        private final SlotProducer slot;
        private final List<Sent> sent = new ArrayList<>();

        Recording(SlotProducer slot) {
            this.slot = slot;
        }

        @Override
        public Init init() {
            calls.add("init");
            return slot.init();
        }

        @Override
        public void prepare(Set<String> topics) {
            prepared.add(new TreeSet<>(topics) + " after " + calls);
            onPrepare.run();
            slot.prepare(topics);
        }

        @Override
        public void begin() {
            calls.add("begin");
            slot.begin();
        }

        @Override
        public Sent send(ProducerRecord<byte[], byte[]> record, TxnSendOption option) {
            calls.add("send " + record.topic());
            if (option == TxnSendOption.NONE) {
                earlierSendsDoneAtProgress.add(sent.stream().allMatch(s -> !(s instanceof Sent.Accepted a)
                        || a.metadata().isDone()));
            }
            Sent answer = script.apply(record).orElseGet(() -> slot.send(record, option));
            sent.add(answer);
            return answer;
        }

        @Override
        public End commit() {
            calls.add("commit");
            return slot.commit();
        }

        @Override
        public End abort() {
            calls.add("abort");
            return slot.abort();
        }

        @Override
        public void close(Duration timeout) {
            slot.close(timeout);
        }
    }
}
