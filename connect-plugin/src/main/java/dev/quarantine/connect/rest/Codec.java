package dev.quarantine.connect.rest;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;

import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.Serializer;

/**
 * The binary form of the monitor's store values and of the partial answers workers exchange: plain
 * {@link DataOutputStream} fields, a version byte first. Kept in the plugin so no JSON library shapes the stores.
 */
final class Codec {

    static final byte VERSION = 1;

    /** Writes one value's fields. */
    interface Writer<T> {
        void write(T value, DataOutputStream out) throws IOException;
    }

    /** Reads one value's fields. */
    interface Reader<T> {
        T read(DataInputStream in) throws IOException;
    }

    private Codec() {
    }

    static <T> byte[] encode(T value, Writer<T> writer) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(256);
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeByte(VERSION);
            writer.write(value, out);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot happen: writing to memory", e);
        }
        return bytes.toByteArray();
    }

    static <T> T decode(byte[] data, Reader<T> reader) {
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(data))) {
            byte version = in.readByte();
            if (version != VERSION) {
                throw new SerializationException("unknown monitor value version " + version);
            }
            return reader.read(in);
        } catch (IOException e) {
            throw new SerializationException("malformed monitor value of " + data.length + " bytes", e);
        }
    }

    static <T> Serde<T> serde(Writer<T> writer, Reader<T> reader) {
        Serializer<T> serializer = (topic, value) -> value == null ? null : encode(value, writer);
        Deserializer<T> deserializer = (topic, data) -> data == null ? null : decode(data, reader);
        return Serdes.serdeFrom(serializer, deserializer);
    }

    static void writeNullable(String value, DataOutputStream out) throws IOException {
        out.writeBoolean(value != null);
        if (value != null) {
            out.writeUTF(value);
        }
    }

    static String readNullable(DataInputStream in) throws IOException {
        return in.readBoolean() ? in.readUTF() : null;
    }

    static void writeBytes(byte[] value, DataOutputStream out) throws IOException {
        out.writeInt(value == null ? -1 : value.length);
        if (value != null) {
            out.write(value);
        }
    }

    static byte[] readBytes(DataInputStream in) throws IOException {
        int length = in.readInt();
        if (length < 0) {
            return null;
        }
        byte[] value = new byte[length];
        in.readFully(value);
        return value;
    }
}
