package dev.quarantine.txn;

import java.nio.charset.StandardCharsets;

import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Serializer;

/** Serializes Strings as UTF-8; fails on the String "unserializable"; casts anything else (ClassCastException). */
public class PoisonAwareSerializer implements Serializer<Object> {

    static final String UNSERIALIZABLE = "unserializable";

    @Override
    public byte[] serialize(String topic, Object data) {
        if (data == null) {
            return null;
        }
        String text = (String) data;
        if (text.equals(UNSERIALIZABLE)) {
            throw new SerializationException("cannot serialize this value (test)");
        }
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
