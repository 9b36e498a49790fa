package dev.quarantine.streams;

import dev.quarantine.txn.SendErrorCategory;

/**
 * What {@link DeadLetterProductionExceptionHandler} answers for a record Kafka Streams could not write, by the
 * error's {@link dev.quarantine.txn.SendErrors} category, the kind of topic it was going to ({@link StreamsTopics})
 * and how often the same input record has already been retried. A serialization error counts as RECORD.
 *
 * <table>
 * <caption>The handler's decisions</caption>
 * <tr><th>category</th><th>topic</th><th>attempt</th><th>answer</th></tr>
 * <tr><td>RETRIABLE</td><td>any</td><td>below {@code quarantine.production.retries}</td><td>RETRY</td></tr>
 * <tr><td>RECORD</td><td>output</td><td>any</td><td>RESUME with a dead letter</td></tr>
 * <tr><td>RETRIABLE</td><td>output</td><td>retries spent</td><td>RESUME with a dead letter</td></tr>
 * <tr><td>RECORD, or RETRIABLE with retries spent</td><td>changelog or repartition</td><td>any</td>
 *     <td>FAIL: never dead-letter state or data the app reads back</td></tr>
 * <tr><td>RECORD, or RETRIABLE with retries spent</td><td>dead-letter topic</td><td>any</td>
 *     <td>FAIL: never dead-letter a dead letter</td></tr>
 * <tr><td>ABORTABLE, FATAL</td><td>any</td><td>any</td><td>FAIL</td></tr>
 * </table>
 *
 * <p>Two checks come after a dead-letter answer and may turn it into FAIL: that a dead-letter topic is set, and the
 * breaker ({@code quarantine.dlq.max.ratio}).
 */
final class HandlerDecisions {

    /** One answer of the table. */
    enum Decision {
        RETRY, DEAD_LETTER, FAIL_INTERNAL_TOPIC, FAIL_DEAD_LETTER_TOPIC, FAIL_ERROR
    }

    private final int maxRetries;

    HandlerDecisions(int maxRetries) {
        if (maxRetries < 0) {
            throw new IllegalArgumentException("maxRetries is " + maxRetries + ", must be at least 0");
        }
        this.maxRetries = maxRetries;
    }

    /**
     * @param attempt how many times the same input record's write to this topic was already answered with RETRY
     */
    Decision decide(SendErrorCategory category, TopicKind topic, int attempt) {
        if (category == SendErrorCategory.ABORTABLE || category == SendErrorCategory.FATAL) {
            return Decision.FAIL_ERROR;
        }
        if (category == SendErrorCategory.RETRIABLE && attempt < maxRetries) {
            return Decision.RETRY;
        }
        return switch (topic) {
            case OUTPUT -> Decision.DEAD_LETTER;
            case CHANGELOG, REPARTITION -> Decision.FAIL_INTERNAL_TOPIC;
            case DEAD_LETTER -> Decision.FAIL_DEAD_LETTER_TOPIC;
        };
    }
}
