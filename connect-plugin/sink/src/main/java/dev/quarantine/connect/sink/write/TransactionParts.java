package dev.quarantine.connect.sink.write;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.sink.SinkRecord;

import dev.quarantine.connect.sink.progress.ProgressRecord;
import dev.quarantine.connect.sink.progress.RedoRange;
import dev.quarantine.connect.sink.write.IsolationPlan.Position;
import dev.quarantine.connect.sink.write.IsolationPlan.Step;
import dev.quarantine.connect.sink.write.TaskTransaction.Part;
import dev.quarantine.connect.sink.write.TaskTransaction.Poison;
import dev.quarantine.connect.sink.write.TaskTransaction.Write;

/**
 * What a {@link TaskWriter}'s transactions hold, per source partition ({@link Part}): for a step of an isolation
 * ({@link IsolationPlan}), the waiting records in the step's ranges, each converted, or as its dead letter once the
 * step isolates it as poison or the converters fail on it for good, a redo sending below its end only where the commit
 * was lost, with the partition's progress over the range; at {@code preCommit}, the progress alone moved on.
 */
final class TransactionParts {

    private final Function<SinkRecord, ProducerRecord<byte[], byte[]>> convert;
    private final TaskTransaction.Letters letters;
    private final Function<TopicPartition, Map<String, Integer>> mapped;

    /** The parts of one step, and why each record they dead-letter is poison (for the metrics and the breaker). */
    record StepParts(List<Part> parts, Map<Position, Throwable> causes) {

        /** The records the step writes as their dead letters, in the order of its parts, each with its cause. */
        List<Poison> isolated() {
            List<Poison> isolated = new ArrayList<>();
            for (Part part : parts) {
                for (Write write : part.writes()) {
                    if (write.deadLetter()) {
                        isolated.add(new Poison(part.source(), write.offset(),
                                causes.get(new Position(part.source(), write.offset()))));
                    }
                }
            }
            return isolated;
        }
    }

    /**
     * {@code mapped}: the partition count of each target topic a source partition's records are mapped by, carried in
     * its progress records (issue 22 item 7).
     */
    TransactionParts(Function<SinkRecord, ProducerRecord<byte[], byte[]>> convert, TaskTransaction.Letters letters,
                     Function<TopicPartition, Map<String, Integer>> mapped) {
        this.convert = convert;
        this.letters = letters;
        this.mapped = mapped;
    }

    /**
     * The parts of {@code step} over the {@code waiting} records and {@code committed} progress of its partitions;
     * {@code rejections}: why the broker rejected each record the step dead-letters.
     */
    StepParts of(Step step, Map<Position, Throwable> rejections, Map<TopicPartition, ProgressRecord> committed,
                 Map<TopicPartition, PendingRecords> waiting) {
        return of(step, rejections, committed, waiting, Map.of());
    }

    /**
     * As above, for the first step of a write whose transaction began ahead of the trigger ({@link
     * TaskWriter#sendAhead}): {@code sent} holds what it sent of each partition, the first waiting records, as they
     * were converted then; they are not converted again, and their causes join the step's.
     */
    StepParts of(Step step, Map<Position, Throwable> rejections, Map<TopicPartition, ProgressRecord> committed,
                 Map<TopicPartition, PendingRecords> waiting, Map<TopicPartition, Sent> sent) {
        List<Part> parts = new ArrayList<>();
        Map<Position, Throwable> causes = new HashMap<>();
        sent.values().forEach(ahead -> causes.putAll(ahead.causes()));
        step.ranges().forEach((source, range) -> {
            ProgressRecord last = committed.get(source);
            Optional<RedoRange> redo = last.redo();
            Sent ahead = sent.getOrDefault(source, Sent.NONE);
            List<Write> writes = new ArrayList<>(ahead.writes());
            List<SinkRecord> records = waiting.get(source).records();
            for (SinkRecord record : records.subList(ahead.writes().size(), records.size())) {
                if (range.holds(record.originalKafkaOffset())) {
                    Write write = write(source, record, step, rejections, causes);
                    if (redo.isEmpty() || redo.get().sends(write.offset(), write.out().topic(),
                            write.out().partition())) {
                        writes.add(write); // a redo sends below its end only where the commit was lost
                    }
                }
            }
            parts.add(new Part(source, writes, new ProgressRecord(range.from(), range.to(), last.topicId(),
                    last.sourceTopicId(), Map.copyOf(mapped.apply(source)),
                    redo.filter(r -> r.pendingAt(range.to())), Optional.empty(), last.written(), Optional.empty())));
        });
        return new StepParts(parts, causes);
    }

    /**
     * What a transaction begun ahead of the trigger sent of one source partition: the writes of its first waiting
     * records, in order, and why each that it dead-letters is poison.
     */
    record Sent(List<Write> writes, Map<Position, Throwable> causes) {
        static final Sent NONE = new Sent(List.of(), Map.of());

        Sent and(Sent more) {
            List<Write> all = new ArrayList<>(writes);
            all.addAll(more.writes());
            Map<Position, Throwable> allCauses = new HashMap<>(causes);
            allCauses.putAll(more.causes());
            return new Sent(List.copyOf(all), Map.copyOf(allCauses));
        }
    }

    /**
     * The writes of {@code records}, waiting records of {@code source} with no redo pending, sent ahead of the trigger
     * as the first step of a write would send them (no record known as poison yet).
     */
    Sent ahead(TopicPartition source, List<SinkRecord> records) {
        List<Write> writes = new ArrayList<>();
        Map<Position, Throwable> causes = new HashMap<>();
        Step first = new Step(Map.of(), Set.of());
        for (SinkRecord record : records) {
            writes.add(write(source, record, first, Map.of(), causes));
        }
        return new Sent(List.copyOf(writes), Map.copyOf(causes));
    }

    /** How many records {@code parts} write as themselves (not as dead letters). */
    static int records(List<Part> parts) {
        int records = 0;
        for (Part part : parts) {
            records += (int) part.writes().stream().filter(write -> !write.deadLetter()).count();
        }
        return records;
    }

    /**
     * The progress of each partition of {@code committed} with nothing {@code waiting}, moved on to its position in
     * {@code positions} where that is past it; it keeps its {@code from} and its lines.
     */
    static List<Part> moved(Map<TopicPartition, Long> positions, Map<TopicPartition, ProgressRecord> committed,
                            Map<TopicPartition, PendingRecords> waiting) {
        List<Part> parts = new ArrayList<>();
        positions.forEach((source, position) -> {
            ProgressRecord last = committed.get(source);
            if (last != null && waiting.get(source).count() == 0 && position > last.next()) {
                parts.add(new Part(source, List.of(), new ProgressRecord(last.from(), position, last.topicId(),
                        last.sourceTopicId(), last.targetPartitions(), last.redo().filter(r -> r.pendingAt(position)),
                        Optional.empty(), last.written(), Optional.empty())));
            }
        });
        return parts;
    }

    /** The record as itself, or, once isolated as poison, as its dead letter (none in strict mode: thrown). */
    private Write write(TopicPartition source, SinkRecord record, Step step, Map<Position, Throwable> rejections,
                        Map<Position, Throwable> causes) {
        if (record.topic() == null) {
            throw new WriterErrors.NoTopic(record);
        }
        ProducerRecord<byte[], byte[]> converted;
        try {
            converted = convert.apply(record);
        } catch (Error e) {
            // a linkage error from a converter or a client built for another Kafka: the task fails, naming it
            throw new ConnectException("Writing " + source + " failed at " + Coordinates.of(record) + ": " + e, e);
        } catch (SerializationException e) {
            // the converters failed for good (RecordConverter): poison, dead-lettered as the input record
            causes.put(new Position(source, record.originalKafkaOffset()), e);
            return letters.of(record, null, e).map(letter -> new Write(record, letter, true))
                    .orElseThrow(() -> new WriterErrors.PoisonInStrictMode(record, record.topic(), e));
        }
        Position position = new Position(source, record.originalKafkaOffset());
        if (!step.poison().contains(position)) {
            return new Write(record, converted, false);
        }
        Throwable cause = rejections.get(position);
        causes.put(position, cause);
        return letters.of(record, converted, cause).map(letter -> new Write(record, letter, true))
                .orElseThrow(() -> new WriterErrors.PoisonInStrictMode(record, converted.topic(), cause));
    }
}
