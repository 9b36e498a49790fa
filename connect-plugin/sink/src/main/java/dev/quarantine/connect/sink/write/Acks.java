package dev.quarantine.connect.sink.write;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TimeoutException;

import dev.quarantine.connect.sink.write.TaskTransaction.Write;

/**
 * The sends of one {@link TaskTransaction} and their acknowledgements: waited for before any progress record is sent
 * (rule V of docs/design/sink-ownership.md 2.7.1), they say where each source partition's records went, per partition
 * written the offset of the first and after the last ({@link Range}), or the failure the transaction ends with: the
 * first, in the order sent, of the gravest {@link FailureAction} found, FENCED before FATAL before POISON before RETRY.
 * So a record the broker refused is found though the records of its produce batch sent before it failed too (as
 * collateral damage, RETRY), and a fence ends the transaction whatever else failed.
 */
final class Acks {

    /** {@code [first, end)} on one partition written. */
    record Range(long first, long end) {
        Range with(long offset) {
            return new Range(Math.min(first, offset), Math.max(end, offset + 1));
        }
    }

    /** A send that failed. */
    record Failure(TopicPartition source, Write write, Throwable cause) {
    }

    /** Per source partition, per partition written, its range; or the failure the transaction ends with. */
    record Answer(Map<TopicPartition, Map<TopicPartition, Range>> written, Optional<Failure> failure) {
    }

    private record Pending(TopicPartition source, Write write, Future<RecordMetadata> metadata) {
    }

    private static final List<FailureAction> GRAVEST_FIRST = List.of(FailureAction.FENCED, FailureAction.FATAL,
            FailureAction.POISON, FailureAction.RETRY);

    private final List<Pending> pending = new ArrayList<>();

    void add(TopicPartition source, Write write, Future<RecordMetadata> metadata) {
        pending.add(new Pending(source, write, metadata));
    }

    /** Waits for every acknowledgement, all within {@code bound}. */
    Answer await(Duration bound) {
        long deadline = System.nanoTime() + bound.toNanos();
        Map<TopicPartition, Map<TopicPartition, Range>> written = new HashMap<>();
        List<Failure> failures = new ArrayList<>();
        for (Pending send : pending) {
            Optional<Failure> failure = Optional.empty();
            try {
                RecordMetadata metadata = send.metadata().get(Math.max(0, deadline - System.nanoTime()),
                        TimeUnit.NANOSECONDS);
                if (metadata.hasOffset() && metadata.partition() >= 0) {
                    written.computeIfAbsent(send.source(), s -> new HashMap<>()).merge(
                            new TopicPartition(metadata.topic(), metadata.partition()),
                            new Range(metadata.offset(), metadata.offset() + 1), (a, b) -> a.with(b.first()));
                }
            } catch (ExecutionException e) {
                failure = Optional.of(new Failure(send.source(), send.write(), e.getCause()));
            } catch (java.util.concurrent.TimeoutException e) {
                failure = Optional.of(new Failure(send.source(), send.write(), new TimeoutException("The send of "
                        + Coordinates.of(send.write().record()) + " was not acknowledged within " + bound, e)));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                failure = Optional.of(new Failure(send.source(), send.write(), new TimeoutException("Interrupted"
                        + " while waiting for the send of " + Coordinates.of(send.write().record()), e)));
            }
            failure.ifPresent(failures::add);
        }
        return new Answer(written, gravest(failures));
    }

    private static Optional<Failure> gravest(List<Failure> failures) {
        for (FailureAction action : GRAVEST_FIRST) {
            Optional<Failure> found = failures.stream().filter(f -> FailureAction.of(f.cause()) == action)
                    .findFirst();
            if (found.isPresent()) {
                return found;
            }
        }
        return Optional.empty();
    }
}
