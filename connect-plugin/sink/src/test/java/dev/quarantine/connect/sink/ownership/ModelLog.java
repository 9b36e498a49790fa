package dev.quarantine.connect.sink.ownership;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;

import dev.quarantine.connect.sink.ownership.OwnershipLog.At;
import dev.quarantine.connect.sink.ownership.OwnershipLog.LogRead;
import dev.quarantine.connect.sink.progress.OwnershipRecord;
import dev.quarantine.connect.sink.progress.ProgressRecord;
import dev.quarantine.connect.sink.write.WriterFactory;

/**
 * The progress topic of the model as one task's {@link OwnershipLog}: each read tails its partition from where the
 * last stopped to the high watermark taken at the call, {@code read_committed}, through the one reader of each format
 * ({@link OwnershipRecord#read}, {@link ProgressRecord#parse}); held back while a transaction is open below the high
 * watermark (the model answers at once where the real read waits up to its bound).
 */
final class ModelLog implements OwnershipLog {

    private final ModelCoordinator model;
    private final String topic;
    private final String prefix;
    private long claimsAt;
    private long progressAt;

    ModelLog(ModelCoordinator model, String topic, String prefix) {
        this.model = model;
        this.topic = topic;
        this.prefix = prefix;
    }

    @Override
    public LogRead<OwnershipRecord> claims(Duration bound) {
        LogRead<OwnershipRecord> read = read(OwnershipRecord.PARTITION, claimsAt,
                record -> OwnershipRecord.read(prefix, record));
        if (read instanceof LogRead.Read<OwnershipRecord> done) {
            claimsAt = done.highWatermark();
        }
        return read;
    }

    @Override
    public LogRead<ProgressMark> progress(Duration bound) {
        LogRead<ProgressMark> read = read(0, progressAt, ModelLog.this::mark);
        if (read instanceof LogRead.Read<ProgressMark> done) {
            progressAt = done.highWatermark();
        }
        return read;
    }

    private Optional<ProgressMark> mark(ConsumerRecord<byte[], byte[]> record) {
        Optional<TopicPartition> source = WriterFactory.sourceOf(prefix,
                new String(record.key(), StandardCharsets.UTF_8));
        if (source.isEmpty()) {
            return Optional.empty();
        }
        Optional<Holder> holder = record.value() == null ? Optional.empty()
                : ProgressRecord.parse(record.value()).holder().map(h -> new Holder(h.id(), h.claim()));
        return Optional.of(new ProgressMark(source.get(), holder));
    }

    private <T> LogRead<T> read(int partition, long from, Function<ConsumerRecord<byte[], byte[]>, Optional<T>> format) {
        ModelPartition log = model.partition(new TopicPartition(topic, partition));
        long highWatermark = log.highWatermark();
        if (log.lastStableOffset() < highWatermark) {
            return new LogRead.HeldBack<>(log.lastStableOffset());
        }
        List<At<T>> read = new ArrayList<>();
        log.readCommitted(from).forEach(record -> format.apply(record)
                .ifPresent(value -> read.add(new At<>(record.offset(), value))));
        return new LogRead.Read<>(read, highWatermark);
    }
}
