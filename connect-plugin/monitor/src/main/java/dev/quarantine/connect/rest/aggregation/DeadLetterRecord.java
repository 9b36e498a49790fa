package dev.quarantine.connect.rest.aggregation;

import java.io.DataOutputStream;
import java.io.IOException;
import java.util.Arrays;

import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.serialization.Serde;

import dev.quarantine.replay.letters.DeadLetterContext;
import dev.quarantine.replay.letters.DeadLetterFormat;
import dev.quarantine.replay.letters.DeadLetterReader;
import dev.quarantine.replay.letters.HeaderText;
import dev.quarantine.txn.RecordPositions;

/**
 * What the monitor keeps of one dead-letter record: where it is, its format, which error put it there, where the
 * failed record came from and who dead-lettered it (all read by {@link DeadLetterReader}), and sizes. The key and
 * value are kept only when payloads are exposed.
 *
 * @param format    who wrote it: a {@link DeadLetterFormat#label()} ({@code connect}, {@code streams},
 *                  {@code share-group}, {@code spring}, {@code quarantine}, {@code unknown})
 * @param connector the connector, application or group that dead-lettered it ({@link
 *                  DeadLetterContext#groupOrApplication()}), else the connector whose settings name the topic
 * @param key       the record key, or {@code null} (always {@code null} unless payloads are exposed)
 */
public record DeadLetterRecord(String topic, int partition, long offset, long timestamp, String format,
                        String errorClass, String errorMessage, String originalTopic, Integer originalPartition,
                        Long originalOffset, String connector, String task, String stage, int keySize,
                        int valueSize, Long originalSize, byte[] key, byte[] value) {

    public static final String UNKNOWN = "(unknown)";
    static final Serde<DeadLetterRecord> SERDE = Codec.serde(DeadLetterRecord::write, DeadLetterRecord::read);

    /**
     * Reads a dead letter's metadata from its headers through the one reader of every format
     * ({@link DeadLetterReader}), every string bounded ({@link HeaderText}).
     *
     * @param connectorHint the connector whose settings name this topic, used when the record does not say
     * @param keepPayload   whether to keep the key and value (at most {@code payloadMaxBytes} of each) and the error
     *                      message (which often quotes the payload)
     */
    public static DeadLetterRecord parse(String topic, int partition, long offset, long timestamp, byte[] key,
                                  byte[] value, Headers headers, String connectorHint, boolean keepPayload,
                                  int payloadMaxBytes) {
        DeadLetterContext read = DeadLetterReader.read(headers);
        return new DeadLetterRecord(topic, partition, offset, timestamp, read.format().label(),
                read.errorClass().orElse(null), keepPayload ? read.errorMessage().orElse(null) : null,
                read.originalTopic().shown().orElse(null), read.originalPartition().value().orElse(null),
                read.originalOffset().value().orElse(null), read.groupOrApplication().orElse(connectorHint),
                read.task().orElse(null), read.stage().orElse(null),
                key == null ? -1 : key.length, value == null ? -1 : value.length, read.originalSize().orElse(null),
                keepPayload ? cut(key, payloadMaxBytes) : null, keepPayload ? cut(value, payloadMaxBytes) : null);
    }

    /** A record whose headers could not be read at all: counted under {@link HeaderText#UNPARSEABLE}. */
    static DeadLetterRecord unparseable(String topic, int partition, long offset, long timestamp, String hint) {
        return new DeadLetterRecord(topic, partition, offset, timestamp, DeadLetterFormat.UNKNOWN.label(),
                HeaderText.UNPARSEABLE, null,
                HeaderText.UNPARSEABLE, null, null, hint, null, null, -1, -1, null, null, null);
    }

    String originalTopicOrUnknown() {
        return originalTopic == null ? UNKNOWN : originalTopic;
    }

    String connectorOrUnknown() {
        return connector == null ? UNKNOWN : connector;
    }

    String errorClassOrUnknown() {
        return errorClass == null ? UNKNOWN : errorClass;
    }

    /** {@code topic-partition@offset} through {@link RecordPositions}, the way every log line names a record. */
    String coordinates() {
        return RecordPositions.of(topic, partition, offset);
    }

    /** Newest first: by timestamp, then by partition and offset. */
    static int newestFirst(DeadLetterRecord a, DeadLetterRecord b) {
        int byTime = Long.compare(b.timestamp, a.timestamp);
        if (byTime != 0) {
            return byTime;
        }
        int byPartition = Integer.compare(a.partition, b.partition);
        return byPartition != 0 ? byPartition : Long.compare(b.offset, a.offset);
    }

    private static byte[] cut(byte[] data, int max) {
        return data == null || data.length <= max ? data : Arrays.copyOf(data, max);
    }

    static void write(DeadLetterRecord r, DataOutputStream out) throws IOException {
        Codec.writeString(r.topic, out);
        out.writeInt(r.partition);
        out.writeLong(r.offset);
        out.writeLong(r.timestamp);
        Codec.writeString(r.format, out);
        Codec.writeNullable(r.errorClass, out);
        Codec.writeNullable(r.errorMessage, out);
        Codec.writeNullable(r.originalTopic, out);
        out.writeLong(r.originalPartition == null ? Long.MIN_VALUE : r.originalPartition);
        out.writeLong(r.originalOffset == null ? Long.MIN_VALUE : r.originalOffset);
        Codec.writeNullable(r.connector, out);
        Codec.writeNullable(r.task, out);
        Codec.writeNullable(r.stage, out);
        out.writeInt(r.keySize);
        out.writeInt(r.valueSize);
        out.writeLong(r.originalSize == null ? Long.MIN_VALUE : r.originalSize);
        Codec.writeBytes(r.key, out);
        Codec.writeBytes(r.value, out);
    }

    static DeadLetterRecord read(Codec.Input in) throws IOException {
        String topic = in.readString();
        int partition = in.readInt();
        long offset = in.readLong();
        long timestamp = in.readLong();
        String format = in.readString();
        String errorClass = Codec.readNullable(in);
        String errorMessage = Codec.readNullable(in);
        String originalTopic = Codec.readNullable(in);
        long originalPartition = in.readLong();
        long originalOffset = in.readLong();
        String connector = Codec.readNullable(in);
        String task = Codec.readNullable(in);
        String stage = Codec.readNullable(in);
        int keySize = in.readInt();
        int valueSize = in.readInt();
        long originalSize = in.readLong();
        return new DeadLetterRecord(topic, partition, offset, timestamp, format, errorClass, errorMessage,
                originalTopic, originalPartition == Long.MIN_VALUE ? null : (int) originalPartition,
                originalOffset == Long.MIN_VALUE ? null : originalOffset, connector, task, stage, keySize,
                valueSize, originalSize == Long.MIN_VALUE ? null : originalSize, Codec.readBytes(in),
                Codec.readBytes(in));
    }
}
