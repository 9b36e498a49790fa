package dev.quarantine.txn;

import java.util.Map;

import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.serialization.Serializer;

/**
 * Wraps the user's serializer inside the {@code KafkaProducer} of a {@link TxnSendProducer}, so a record that was
 * serialized for the up-front checks is not serialized a second time: {@link #serializeAndKeep} remembers the bytes
 * for the object it was given, on this thread, and the producer's next call for that same object gets them back.
 */
final class ReusingSerializer<T> implements Serializer<T> {

    private static final class Kept {
        Object data;
        byte[] bytes;
        boolean present;
    }

    private final Serializer<T> serializer;
    private final ThreadLocal<Kept> kept = ThreadLocal.withInitial(Kept::new);

    ReusingSerializer(Serializer<T> serializer) {
        this.serializer = serializer;
    }

    byte[] serializeAndKeep(String topic, Headers headers, T data) {
        byte[] bytes = serializer.serialize(topic, headers, data);
        Kept slot = kept.get();
        slot.data = data;
        slot.bytes = bytes;
        slot.present = true;
        return bytes;
    }

    void forget() {
        Kept slot = kept.get();
        slot.data = null;
        slot.bytes = null;
        slot.present = false;
    }

    @Override
    public byte[] serialize(String topic, Headers headers, T data) {
        Kept slot = kept.get();
        if (slot.present && slot.data == data) {
            byte[] bytes = slot.bytes;
            forget();
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
