package dev.quarantine.connect.sink.write;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.errors.ConnectException;

import dev.quarantine.connect.sink.progress.ProgressRecord;
import dev.quarantine.connect.sink.write.TaskTransaction.Outcome;
import dev.quarantine.connect.sink.write.TaskTransaction.Part;

/**
 * Whether a slot's write goes on after a transaction of its own ended in an abort (rule V (c), design 2.7.1): every
 * committed progress of the slot is looked at ({@link TaskWriter.AfterAbort}: the abort ended the producer id's open
 * ranges on every partition it wrote, a shared dead-letter partition holding other partitions' commits among them);
 * Unknown (re-initialise, then rule V decides) when one no longer reads visible, or the look failed.
 */
final class OwnAbortCheck {

    private final TaskWriter.AfterAbort afterAbort;

    OwnAbortCheck(TaskWriter.AfterAbort afterAbort) {
        this.afterAbort = afterAbort;
    }

    /**
     * After the transaction of {@code parts} was aborted for {@code cause}, with {@code committed} the slot's committed
     * progress: empty when the write goes on, else the Unknown outcome (a failed look attached to {@code cause}).
     */
    Optional<Outcome> after(List<Part> parts, Throwable cause, Map<TopicPartition, ProgressRecord> committed) {
        boolean visible;
        try {
            visible = afterAbort.stillVisible(Map.copyOf(committed));
        } catch (RuntimeException e) {
            cause.addSuppressed(e);
            visible = false;
        }
        return visible ? Optional.empty() : Optional.of(new Outcome.Unknown(lostToAbort(parts, cause)));
    }

    private static ConnectException lostToAbort(List<Part> parts, Throwable cause) {
        ConnectException lost = new ConnectException("A transaction of " + parts.stream().map(Part::source).toList()
                + " was aborted (" + cause + ") and a commit behind the slot's progress no longer reads visible on"
                + " the target, or could not be looked at: the slot initialises again and redoes what the abort took"
                + " with it");
        lost.addSuppressed(cause);
        return lost;
    }
}
