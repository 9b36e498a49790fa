package dev.quarantine.connect.sink.progress;

import java.util.Collection;

import org.apache.kafka.common.errors.TopicAuthorizationException;

import dev.quarantine.connect.sink.write.FailureAction;

/**
 * Whether the progress record's failure in a failed transaction is its own refusal (no batch of the partition can
 * commit until it is fixed) or the error of a record or dead letter of the same transaction. Once the broker rejects
 * one record, the producer fails every send of the transaction not yet sent with the rejection's error (its
 * abortable error state), the progress record among them; which partition's answer carried it is not told. So:
 *
 * <table>
 * <caption>The progress record's failure</caption>
 * <tr><th>progress record failed with</th><th>records or dead letters of the transaction failed</th>
 *     <th>its own refusal</th></tr>
 * <tr><td>a transient or collateral error ({@link FailureAction#RETRY})</td><td>any</td><td>no: retried</td></tr>
 * <tr><td>TopicAuthorizationException</td><td>any</td><td>only when it names the progress topic</td></tr>
 * <tr><td>anything else</td><td>one at least with a poison or fatal error</td><td>no: theirs, handled first (a
 *     poison is sent again alone; a progress record refused for itself fails that transaction too, and one
 *     without them is judged by the next row)</td></tr>
 * <tr><td>anything else</td><td>none, or only with transient or collateral errors</td><td>yes</td></tr>
 * </table>
 */
public final class ProgressRefusal {

    private ProgressRefusal() {
    }

    /**
     * Whether {@code progressError} is the progress record's own refusal, its transaction's records and dead letters
     * having failed with {@code otherErrors}.
     */
    public static boolean isOwn(Throwable progressError, String progressTopic,
            Collection<? extends Throwable> otherErrors) {
        if (FailureAction.of(progressError) == FailureAction.RETRY) {
            return false;
        }
        if (progressError instanceof TopicAuthorizationException denied) {
            return denied.unauthorizedTopics().contains(progressTopic);
        }
        return otherErrors.stream().allMatch(error -> FailureAction.of(error) == FailureAction.RETRY);
    }
}
