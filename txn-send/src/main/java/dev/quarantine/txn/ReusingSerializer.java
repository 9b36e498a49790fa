package dev.quarantine.txn;

import java.util.Map;

import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.serialization.Serializer;

/**
 * Wraps the user's serializer inside the {@code KafkaProducer} of a {@link TxnSendProducer}, so a record serialized
 * for the up-front checks is not serialized a second time: {@link RecordSerializer} keeps the bytes it made for the
 * key and value objects, on this thread, and the producer's next call for that same object gets them back.
 */
final class ReusingSerializer<T> implements Serializer<T> {

    /** The bytes made for one record on one thread; key and value share it to save thread-local look-ups. */
    static final class Kept {
        Object key;
        byte[] keyBytes;
        boolean hasKey;
        Object value;
        byte[] valueBytes;
        boolean hasValue;

        void clear() {
            key = null;
            keyBytes = null;
            hasKey = false;
            value = null;
            valueBytes = null;
            hasValue = false;
        }
    }

    private final Serializer<T> serializer;
    private final ThreadLocal<Kept> kept;
    private final boolean isKey;

    ReusingSerializer(Serializer<T> serializer, ThreadLocal<Kept> kept, boolean isKey) {
        this.serializer = serializer;
        this.kept = kept;
        this.isKey = isKey;
    }

    @Override
    public byte[] serialize(String topic, Headers headers, T data) {
        Kept slot = kept.get();
        if (isKey && slot.hasKey && slot.key == data) {
            byte[] bytes = slot.keyBytes;
            slot.key = null;
            slot.keyBytes = null;
            slot.hasKey = false;
            return bytes;
        }
        if (!isKey && slot.hasValue && slot.value == data) {
            byte[] bytes = slot.valueBytes;
            slot.value = null;
            slot.valueBytes = null;
            slot.hasValue = false;
            return bytes;
        }
        return serializer.serialize(topic, headers, data);
    }

    @Override
    public byte[] serialize(String topic, T data) {
        return serialize(topic, null, data);
    }

    @Override
    public void configure(Map<String, ?> configs, boolean isKey) {
        serializer.configure(configs, isKey);
    }

    @Override
    public void close() {
        serializer.close();
    }
}
