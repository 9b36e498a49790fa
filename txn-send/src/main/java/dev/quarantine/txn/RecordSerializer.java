package dev.quarantine.txn;

import java.util.Map;

import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Serializer;

/**
 * Serializes a record's key and value for the up-front checks. When {@link TxnSendProducer} builds its own
 * KafkaProducer, that producer gets {@link ReusingSerializer}s, so the bytes made here are handed over instead of
 * being made twice; a wrapped producer serializes again on its own. With Kafka's {@link ByteArraySerializer} for
 * both key and value (Kafka Streams, the sink connector) there is nothing to save: it returns the array it is given,
 * so the producer keeps it and no bytes are handed over (no thread-local look-ups per record).
 */
final class RecordSerializer<K, V> implements AutoCloseable {

    record Serialized(byte[] key, byte[] value) {
    }

    private final Serializer<K> key;
    private final Serializer<V> value;
    private final ThreadLocal<ReusingSerializer.Kept> kept;
    private final boolean owned;

    private RecordSerializer(Serializer<K> key, Serializer<V> value, boolean reusing, boolean owned) {
        this.key = key;
        this.value = value;
        this.kept = reusing ? ThreadLocal.withInitial(ReusingSerializer.Kept::new) : null;
        this.owned = owned;
    }

    /** For a KafkaProducer built here: it gets (and closes) the reusing serializers. */
    static <K, V> RecordSerializer<K, V> reusing(Map<String, ?> configs, Serializer<K> key, Serializer<V> value) {
        Serializer<K> keys = orFromConfig(key, configs, true);
        Serializer<V> values = orFromConfig(value, configs, false);
        return new RecordSerializer<>(keys, values, !(returnsItsInput(keys) && returnsItsInput(values)), false);
    }

    /** For a wrapped producer: serializers of our own, closed with the TxnSendProducer when made from configs. */
    static <K, V> RecordSerializer<K, V> separate(Map<String, ?> configs, Serializer<K> key, Serializer<V> value) {
        return new RecordSerializer<>(orFromConfig(key, configs, true), orFromConfig(value, configs, false), false,
                key == null || value == null);
    }

    /** A serializer for the KafkaProducer built here, handing over the key bytes made by {@link #serialize}. */
    Serializer<K> keyForProducer() {
        return kept == null ? key : new ReusingSerializer<>(key, kept, true);
    }

    /** A serializer for the KafkaProducer built here, handing over the value bytes made by {@link #serialize}. */
    Serializer<V> valueForProducer() {
        return kept == null ? value : new ReusingSerializer<>(value, kept, false);
    }

    Serialized serialize(ProducerRecord<K, V> record) {
        byte[] keyBytes;
        byte[] valueBytes;
        try {
            keyBytes = key.serialize(record.topic(), record.headers(), record.key());
        } catch (ClassCastException e) {
            throw classCast("key", record.key(), ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, key, e);
        }
        try {
            valueBytes = value.serialize(record.topic(), record.headers(), record.value());
        } catch (ClassCastException e) {
            throw classCast("value", record.value(), ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, value, e);
        }
        if (kept != null) {
            ReusingSerializer.Kept slot = kept.get();
            slot.key = record.key();
            slot.keyBytes = keyBytes;
            slot.hasKey = true;
            slot.value = record.value();
            slot.valueBytes = valueBytes;
            slot.hasValue = true;
        }
        return new Serialized(keyBytes, valueBytes);
    }

    /** Drops the bytes kept for the producer on this thread (after the send, or when the record is left out). */
    void forget() {
        if (kept != null) {
            kept.get().clear();
        }
    }

    @Override
    public void close() {
        if (owned) {
            key.close();
            value.close();
        }
    }

    /** Kafka's ByteArraySerializer itself (not a subclass, which may do more): it returns the array it is given. */
    private static boolean returnsItsInput(Serializer<?> serializer) {
        return serializer.getClass() == ByteArraySerializer.class;
    }

    private static SerializationException classCast(String what, Object data, String setting, Serializer<?> serializer,
                                                     ClassCastException cause) {
        return new SerializationException("Can't convert " + what + " of class " + data.getClass().getName()
                + " with " + serializer.getClass().getName() + " specified in " + setting, cause);
    }

    @SuppressWarnings("unchecked")
    private static <T> Serializer<T> orFromConfig(Serializer<T> given, Map<String, ?> configs, boolean isKey) {
        if (given != null) {
            return given;
        }
        String setting = isKey ? ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG : ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG;
        ConfigDef def = new ConfigDef().define(setting, ConfigDef.Type.CLASS, ConfigDef.Importance.HIGH,
                "Serializer class");
        Serializer<T> serializer = new AbstractConfig(def, configs, false).getConfiguredInstance(setting, Serializer.class);
        serializer.configure(configs, isKey);
        return serializer;
    }
}
