package dev.quarantine.connect.sink.ownership;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;

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
 * A reset's tombstone removes its key from the reader's answer, so this adapter never answers a {@code ProgressMark}
 * without a holder: the rules keep the last holder they read, a stale {@code P}, which only adds ids to a fence set
 * (rule F).
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
        return (key, value, position) -> {
            long offset = RecordPositions.offsetOf(position);
            ConsumerRecord<byte[], byte[]> record = new ConsumerRecord<>(progressTopic, OwnershipRecord.PARTITION,
                    offset, key.getBytes(StandardCharsets.UTF_8), value);
            return OwnershipRecord.read(prefix, record).map(claim -> new At<>(offset, claim));
        };
    }

    /**
     * Partition 0's progress records of {@code prefix}'s source partitions as the one fact the rules read, who wrote
     * them under which claim; other keys ({@code <id>/completed}, another connector's) are not kept.
     */
    static KeyedFormat<At<ProgressMark>> progressFormat(String prefix) {
        return (key, value, position) -> {
            Optional<TopicPartition> source = WriterFactory.sourceOf(prefix, key);
            if (source.isEmpty()) {
                return Optional.empty();
            }
            Optional<Holder> holder = ProgressRecord.parse(value).holder().map(h -> new Holder(h.id(), h.claim()));
            return Optional.of(new At<>(RecordPositions.offsetOf(position), new ProgressMark(source.get(), holder)));
        };
    }
}
