package dev.quarantine.connect.rest.aggregation;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.Serializer;

import dev.quarantine.replay.letters.HeaderText;

/**
 * The binary form of the monitor's store values and of the partial answers workers exchange: plain
 * {@link DataOutputStream} fields, a version byte first. Kept in the plugin so no JSON library shapes the stores.
 *
 * <p>Version 2 writes strings as a length and UTF-8 bytes, without {@code writeUTF}'s 64 KB limit (the strings are
 * bounded where they are taken from a record, {@link HeaderText}); version 1 values (written with {@code writeUTF} by
 * earlier releases, still in changelog topics) are read too. A length is checked against the bytes left, so a
 * malformed value fails with a {@link SerializationException}, never with a huge allocation.
 */
public final class Codec {

    static final byte VERSION = 2;
    static final byte VERSION_WRITE_UTF = 1;

    /** Writes one value's fields. */
    public interface Writer<T> {
        void write(T value, DataOutputStream out) throws IOException;
    }

    /** Reads one value's fields. */
    public interface Reader<T> {
        T read(Input in) throws IOException;
    }

    /** The fields of one value, and how its strings were written. */
    public static final class Input extends DataInputStream {
        private final byte version;
        private final int size;

        private Input(byte[] data) throws IOException {
            super(new ByteArrayInputStream(data));
            this.size = data.length;
            this.version = readByte();
            if (version != VERSION && version != VERSION_WRITE_UTF) {
                throw new SerializationException("unknown monitor value version " + version);
            }
        }

        /** A string written by {@link #writeString}. */
        String readString() throws IOException {
            if (version == VERSION_WRITE_UTF) {
                return readUTF();
            }
            return new String(readLengthAndBytes(), StandardCharsets.UTF_8);
        }

        /** A length written before a sequence, checked against what the value can hold. */
        int readCount() throws IOException {
            int count = readInt();
            if (count < 0 || count > size) {
                throw new IOException("a count of " + count + " in a value of " + size + " bytes");
            }
            return count;
        }

        private byte[] readLengthAndBytes() throws IOException {
            int length = readCount();
            if (length > available()) {
                throw new IOException("a length of " + length + " with " + available() + " bytes left");
            }
            byte[] bytes = new byte[length];
            readFully(bytes);
            return bytes;
        }
    }

    private Codec() {
    }

    public static <T> byte[] encode(T value, Writer<T> writer) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(256);
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeByte(VERSION);
            writer.write(value, out);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot happen: writing to memory", e);
        }
        return bytes.toByteArray();
    }

    public static <T> T decode(byte[] data, Reader<T> reader) {
        try (Input in = new Input(data)) {
            return reader.read(in);
        } catch (IOException | RuntimeException e) {
            throw e instanceof SerializationException s ? s
                    : new SerializationException("malformed monitor value of " + data.length + " bytes", e);
        }
    }

    static <T> Serde<T> serde(Writer<T> writer, Reader<T> reader) {
        Serializer<T> serializer = (topic, value) -> value == null ? null : encode(value, writer);
        Deserializer<T> deserializer = (topic, data) -> data == null ? null : decode(data, reader);
        return Serdes.serdeFrom(serializer, deserializer);
    }

    static void writeString(String value, DataOutputStream out) throws IOException {
        byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
        out.writeInt(bytes.length);
        out.write(bytes);
    }

    static void writeNullable(String value, DataOutputStream out) throws IOException {
        out.writeBoolean(value != null);
        if (value != null) {
            writeString(value, out);
        }
    }

    static String readNullable(Input in) throws IOException {
        return in.readBoolean() ? in.readString() : null;
    }

    static void writeBytes(byte[] value, DataOutputStream out) throws IOException {
        out.writeInt(value == null ? -1 : value.length);
        if (value != null) {
            out.write(value);
        }
    }

    static byte[] readBytes(Input in) throws IOException {
        int length = in.readInt();
        if (length < 0) {
            return null;
        }
        if (length > in.available()) {
            throw new IOException("a length of " + length + " with " + in.available() + " bytes left");
        }
        byte[] value = new byte[length];
        in.readFully(value);
        return value;
    }
}
