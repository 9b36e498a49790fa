package dev.quarantine.connect.sink.ownership;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;

import dev.quarantine.connect.sink.progress.OwnershipRecord;
import dev.quarantine.connect.sink.progress.ProgressRecord;
import dev.quarantine.connect.sink.write.WriterFactory;
import dev.quarantine.txn.RecordPositions;
import dev.quarantine.txn.progress.CompactedTopicReader;
import dev.quarantine.txn.progress.KeyedFormat;
import dev.quarantine.txn.progress.ReadEnd;
import dev.quarantine.txn.progress.ReadHeldBackException;

/**
 * The real {@link OwnershipLog}: the progress topic read through the project's one reader of compacted topics
 * ({@link CompactedTopicReader}, {@code read_committed}, to the high watermark taken when the read starts), partition
 * 1 with {@link OwnershipRecord}'s reader and partition 0 with {@link ProgressRecord}'s, each through a
 * {@link KeyedFormat} of this class. The reader answers the last record of each key (what compaction keeps) and reads
 * from the beginning every time; this adapter answers, per call, the records above the last one it answered, in
 * offset order, so the ownership rules see a tail as design 2.2 describes. What that leaves out is what compaction
 * may leave out too: a key's earlier records, never a key's last.
 *
 * <table>
 * <caption>How a read ends</caption>
 * <tr><th>reader</th><th>answer</th></tr>
 * <tr><td>read to its end</td><td>{@link LogRead.Read}; its {@code highWatermark} is the offset after the last record
 *     answered so far (the reader does not expose the end it read to)</td></tr>
 * <tr><td>{@link ReadHeldBackException}: a transaction open below the end</td><td>{@link LogRead.HeldBack} at the
 *     offset the read stood at</td></tr>
 * <tr><td>a record of ours it cannot read, any other {@link KafkaException}</td><td>{@link LogRead.Failed}</td></tr>
 * </table>
 *
 * Tombstones reach the formats with their offsets ({@link KeyedFormat#tombstone}): a reset's tombstone on partition 0
 * is answered as a {@code ProgressMark} without a holder at its offset (the partition has no {@code P}, which rule F
 * reads as {@code P.claim = -1}); a tombstone under a claim key of partition 1 is refused naming its
 * {@code topic-partition@offset} ({@link OwnershipRecord#read}: claims are never deleted, so it is an outside write,
 * and a claim it hides could be a holder to fence).
 */
final class CompactedOwnershipLog implements OwnershipLog {

    private final CompactedTopicReader reader;
    private final String topic;
    private final String prefix;
    private final Clock clock;
    private long claimsAt;
    private long progressAt;

    /** {@code reader}: owned by the caller, who closes it. */
    CompactedOwnershipLog(CompactedTopicReader reader, String progressTopic, String prefix, Clock clock) {
        this.reader = reader;
        this.topic = progressTopic;
        this.prefix = prefix;
        this.clock = clock;
    }

    @Override
    public LogRead<OwnershipRecord> claims(Duration bound) {
        LogRead<OwnershipRecord> read = read(OwnershipRecord.PARTITION, claimsAt, claimFormat(prefix, topic), bound);
        if (read instanceof LogRead.Read<OwnershipRecord> done) {
            claimsAt = done.highWatermark();
        }
        return read;
    }

    @Override
    public LogRead<ProgressMark> progress(Duration bound) {
        LogRead<ProgressMark> read = read(0, progressAt, progressFormat(prefix), bound);
        if (read instanceof LogRead.Read<ProgressMark> done) {
            progressAt = done.highWatermark();
        }
        return read;
    }

    private <T> LogRead<T> read(int partition, long from, KeyedFormat<At<T>> format, Duration bound) {
        TopicPartition progressPartition = new TopicPartition(topic, partition);
        Map<String, At<T>> last;
        try {
            last = reader.read(List.of(progressPartition), ReadEnd.HIGH_WATERMARK, format, clock.instant().plus(bound));
        } catch (ReadHeldBackException e) {
            return new LogRead.HeldBack<>(e.stoppedAt().getOrDefault(progressPartition, from));
        } catch (KafkaException e) {
            return new LogRead.Failed<>(e);
        }
        List<At<T>> above = last.values().stream().filter(at -> at.offset() >= from)
                .sorted(Comparator.comparingLong(At::offset)).toList();
        long next = above.isEmpty() ? from : above.get(above.size() - 1).offset() + 1;
        return new LogRead.Read<>(above, next);
    }

    /**
     * Partition 1's records as claims with their offsets: {@link OwnershipRecord#read}, the one reader of the format;
     * keys that are not claims of {@code prefix} are not kept.
     */
    static KeyedFormat<At<OwnershipRecord>> claimFormat(String prefix, String progressTopic) {
        return new KeyedFormat<>() {
            @Override
            public Optional<At<OwnershipRecord>> read(String key, byte[] value, String position) {
                long offset = RecordPositions.offsetOf(position);
                ConsumerRecord<byte[], byte[]> record = new ConsumerRecord<>(progressTopic,
                        OwnershipRecord.PARTITION, offset, key.getBytes(StandardCharsets.UTF_8), value);
                return OwnershipRecord.read(prefix, record).map(claim -> new At<>(offset, claim));
            }

            /** A claim key's tombstone is refused by the format's one reader; another key's is not ours. */
            @Override
            public Optional<At<OwnershipRecord>> tombstone(String key, String position) {
                return read(key, null, position);
            }
        };
    }

    /**
     * Partition 0's progress records of {@code prefix}'s source partitions as the one fact the rules read, who wrote
     * them under which claim; other keys ({@code <id>/completed}, another connector's) are not kept.
     */
    static KeyedFormat<At<ProgressMark>> progressFormat(String prefix) {
        return new KeyedFormat<>() {
            @Override
            public Optional<At<ProgressMark>> read(String key, byte[] value, String position) {
                return mark(prefix, key, position,
                        () -> ProgressRecord.parse(value).holder().map(h -> new Holder(h.id(), h.claim())));
            }

            /** A reset: the source partition's progress deleted, a mark without a holder. */
            @Override
            public Optional<At<ProgressMark>> tombstone(String key, String position) {
                return mark(prefix, key, position, Optional::empty);
            }
        };
    }

    private static Optional<At<ProgressMark>> mark(String prefix, String key, String position,
                                                   Supplier<Optional<Holder>> holder) {
        return WriterFactory.sourceOf(prefix, key).map(source -> new At<>(RecordPositions.offsetOf(position),
                new ProgressMark(source, holder.get())));
    }
}
