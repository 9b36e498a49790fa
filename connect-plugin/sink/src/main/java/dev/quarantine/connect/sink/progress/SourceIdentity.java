package dev.quarantine.connect.sink.progress;

import java.util.Optional;

import org.apache.kafka.common.Uuid;

/**
 * Whether a partition's progress belongs to the source topic of that name as it is now, by topic id:
 *
 * <table>
 * <caption>Progress written for a topic id, the topic's id now</caption>
 * <tr><th>progress written for</th><th>topic now</th><th>the progress is</th></tr>
 * <tr><td>id A</td><td>id A</td><td>the topic's: resume there</td></tr>
 * <tr><td>id A</td><td>id B</td><td>a deleted topic's: the new topic starts over</td></tr>
 * <tr><td>no id (the source cluster did not show the topic then)</td><td>any</td><td>resumed: nothing to tell by
 *     </td></tr>
 * <tr><td>id A</td><td>not shown (missing, or not described)</td><td>resumed: nothing to tell by</td></tr>
 * </table>
 */
final class SourceIdentity {

    private SourceIdentity() {
    }

    /** Whether the topic the progress was written for was replaced by another of the same name. */
    static boolean replaced(Optional<Uuid> progressWrittenFor, Optional<Uuid> now) {
        return progressWrittenFor.isPresent() && now.isPresent() && !progressWrittenFor.equals(now);
    }
}
