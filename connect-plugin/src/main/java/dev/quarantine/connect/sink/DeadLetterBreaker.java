package dev.quarantine.connect.sink;

import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.apache.kafka.connect.errors.ConnectException;

/**
 * Stops a task whose records mostly fail: when the target topic was deleted or misconfigured, every record looks
 * like poison and the whole stream would drain into the dead-letter topic. It keeps the outcome of the task's last
 * {@code dlq.window.records} records (across its partitions) and trips, before a transaction commits, when more than
 * {@code dlq.max.ratio} of them were dead-lettered. It judges only a full window, so a few poison records at the
 * start do not trip it; {@code dlq.max.ratio=1.0} turns it off.
 */
final class DeadLetterBreaker {

    private final double maxRatio;
    private final String[] window;
    private int next;
    private int filled;
    private int deadLettered;

    DeadLetterBreaker(double maxRatio, int windowRecords) {
        this.maxRatio = maxRatio;
        this.window = new String[windowRecords];
    }

    /**
     * Adds the outcomes of a batch about to commit, in order: null for a record written, the exception class name
     * for a record dead-lettered.
     *
     * @throws Tripped when the last window of records holds too many dead letters
     */
    synchronized void admit(List<String> outcomes) {
        if (maxRatio >= 1.0) {
            return;
        }
        for (String outcome : outcomes) {
            if (window[next] != null) {
                deadLettered--;
            }
            window[next] = outcome;
            if (outcome != null) {
                deadLettered++;
            }
            next = (next + 1) % window.length;
            filled = Math.min(filled + 1, window.length);
        }
        if (filled == window.length && deadLettered > maxRatio * window.length) {
            throw new Tripped(deadLettered, window.length, maxRatio, mostCommon());
        }
    }

    private Map.Entry<String, Long> mostCommon() {
        return Stream.of(window).filter(Objects::nonNull)
                .collect(Collectors.groupingBy(Function.identity(), Collectors.counting()))
                .entrySet().stream().max(Comparator.comparingLong(Map.Entry::getValue)).orElseThrow();
    }

    /** Too many of the last records were dead-lettered: the task stops. */
    static final class Tripped extends ConnectException {
        Tripped(int deadLettered, int window, double maxRatio, Map.Entry<String, Long> mostCommon) {
            super(deadLettered + " of the last " + window + " records of this task were dead-lettered, more than "
                    + TransactionalSinkConfig.DLQ_MAX_RATIO_CONFIG + "=" + maxRatio + "; most of them ("
                    + mostCommon.getValue() + ") failed with " + mostCommon.getKey() + ". That looks like a broken"
                    + " target (a deleted or misconfigured topic), not poison records, so the task stops instead of"
                    + " draining good records into the dead-letter topic. Fix the target and restart the task, or raise "
                    + TransactionalSinkConfig.DLQ_MAX_RATIO_CONFIG + " (1.0 turns this check off)");
        }
    }
}
