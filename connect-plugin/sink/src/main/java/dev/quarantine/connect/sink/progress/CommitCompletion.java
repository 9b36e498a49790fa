package dev.quarantine.connect.sink.progress;

import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.Properties;

import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * What an open writes on partition 0 of the progress topic when it completes there a committed transaction C of the
 * partition's id that a restarting broker left open (its marker skipped): the producer id and the epoch C's records
 * carry, under the key {@code <id>/completed} (never a transactional id: a topic name holds no {@code /}), for example
 *
 * <pre>
 * format=1
 * producer.epoch=4
 * producer.id=7000
 * </pre>
 *
 * <p>Why: once C is completed on the progress partition, the id's last transaction is that completion (or, when the
 * intent to redo then fails, an abort), so the coordinator no longer names C; C may still be open on target
 * partitions, where the id's next abort there would lose its records. While the completion stands, the id's progress
 * record is C's own (no transaction of the id commits progress between the completion and the intent), so the next
 * open reads C's range from it and C's producer id and epoch from here, and looks for C as for a committed last
 * transaction. Every transaction that ends C's watch clears it with a tombstone under the same key: the intent to redo
 * (in the same commit), an open that finds C open nowhere, a change through Connect's offsets API. Read by
 * {@link ProgressLog} (the one reader), with the progress of its id.
 */
public record CommitCompletion(long producerId, short epoch) {

    /** Ends the key: never in a topic name, so in no transactional id. */
    public static final String KEY_SUFFIX = "/completed";
    private static final String FORMAT = "1";

    /** The completion of {@code transactionalId}'s commit, for partition 0 of {@code progressTopic}. */
    public ProducerRecord<byte[], byte[]> toRecord(String progressTopic, String transactionalId) {
        String value = "format=" + FORMAT + "\nproducer.epoch=" + epoch + "\nproducer.id=" + producerId + "\n";
        return new ProducerRecord<>(progressTopic, 0, key(transactionalId), value.getBytes(StandardCharsets.UTF_8));
    }

    /** Clears {@code transactionalId}'s completion: C is no longer to be looked for. */
    public static ProducerRecord<byte[], byte[]> tombstone(String progressTopic, String transactionalId) {
        return new ProducerRecord<>(progressTopic, 0, key(transactionalId), null);
    }

    /** The transactional id whose completion {@code key} is, or empty when it is not a completion's key. */
    static Optional<String> idOf(String key) {
        return key.endsWith(KEY_SUFFIX) ? Optional.of(key.substring(0, key.length() - KEY_SUFFIX.length()))
                : Optional.empty();
    }

    /** @throws IllegalArgumentException when {@code value} is not a completion of a format this reads */
    public static CommitCompletion parse(byte[] value) {
        Properties lines = new Properties();
        try {
            lines.load(new StringReader(new String(value, StandardCharsets.UTF_8)));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        if (!FORMAT.equals(lines.getProperty("format"))) {
            throw new IllegalArgumentException("a completion of format " + lines.getProperty("format")
                    + ", while this version reads format " + FORMAT + " (written by a newer version?)");
        }
        String id = lines.getProperty("producer.id");
        String epoch = lines.getProperty("producer.epoch");
        if (id == null || epoch == null) {
            throw new IllegalArgumentException("a completion without producer.id or producer.epoch");
        }
        return new CommitCompletion(Long.parseLong(id.trim()), Short.parseShort(epoch.trim()));
    }

    private static byte[] key(String transactionalId) {
        return (transactionalId + KEY_SUFFIX).getBytes(StandardCharsets.UTF_8);
    }
}
