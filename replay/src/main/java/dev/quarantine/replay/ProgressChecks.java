package dev.quarantine.replay;

import java.util.Collection;
import java.util.Optional;

import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.config.ConfigException;

/**
 * What a replay's progress must agree with before the replay reads or writes on, each rule failing with a
 * {@link ConfigException} on the setting to change:
 *
 * <table>
 * <caption>Rules of a replay's progress</caption>
 * <tr><th>rule</th><th>when</th><th>setting named</th></tr>
 * <tr><td>{@link #requireOfThisTopic}: the committed progress under this id is of this dead-letter topic</td>
 *     <td>start, cancel</td><td>{@code replay.id}</td></tr>
 * <tr><td>{@link #requireSameTopicId}: an unfinished committed progress is of the topic by this name now, not of
 *     one deleted since</td><td>start</td><td>{@code replay.id}</td></tr>
 * <tr><td>{@link #requireStillCaptured}: the topic by this name is still the one the range was captured from</td>
 *     <td>before each batch is written</td><td>{@code replay.id}</td></tr>
 * <tr><td>{@link #requireWithinRangeLimit}: the written ranges stay within the limit</td>
 *     <td>before each commit</td><td>{@code replay.written.ranges.max}</td></tr>
 * </table>
 *
 * And {@link #alreadyReplayed}: what the finished other replays of the topic wrote, which this one skips.
 */
final class ProgressChecks {

    private ProgressChecks() {
    }

    /** {@link #requireOfThisTopic} and {@link #requireSameTopicId}, as a starting replay asks them. */
    static void requireResumable(ReplayConfig config, Optional<ReplayProgress> committed, Uuid dlqTopicId) {
        requireOfThisTopic(config, committed, ": choose another id");
        requireSameTopicId(config, committed, dlqTopicId);
    }

    /**
     * @param advice appended to the message (after the topics are named)
     * @throws ConfigException naming {@code replay.id} when {@code committed} is a replay of another dead-letter topic
     */
    static void requireOfThisTopic(ReplayConfig config, Optional<ReplayProgress> committed, String advice) {
        if (committed.isPresent() && !committed.get().dlqTopic().equals(config.dlqTopic())) {
            throw new ConfigException(ReplayConfig.REPLAY_ID_CONFIG, config.replayId(), "is the id of a replay of "
                    + committed.get().dlqTopic() + ", not of " + config.dlqTopic() + advice);
        }
    }

    /**
     * @throws ConfigException naming {@code replay.id} when {@code committed} is unfinished and of a topic by this
     *                         name deleted since ({@code dlqTopicId} is the id of the topic by this name now)
     */
    static void requireSameTopicId(ReplayConfig config, Optional<ReplayProgress> committed, Uuid dlqTopicId) {
        if (committed.isPresent() && !committed.get().finished() && !committed.get().dlqTopicId().equals(dlqTopicId)) {
            throw new ConfigException(ReplayConfig.REPLAY_ID_CONFIG, config.replayId(), "is the id of a replay of a"
                    + " topic " + config.dlqTopic() + " deleted since (topic id " + committed.get().dlqTopicId()
                    + ", now " + dlqTopicId + "): its offsets say nothing of the new topic; choose another id");
        }
    }

    /**
     * Asked after a poll and before its batch is written: the consumer is assigned by name, so once the dead-letter
     * topic is deleted and created again it would read the new topic at the old range's offsets.
     *
     * @param now the id of the topic by this name now; empty when there is none
     * @throws ConfigException naming {@code replay.id} when the topic by this name is not the one the replay captured
     *                         its range from (deleted, or created again since)
     */
    static void requireStillCaptured(ReplayConfig config, ReplayProgress progress, Optional<Uuid> now) {
        if (!now.equals(Optional.of(progress.dlqTopicId()))) {
            throw new ConfigException(ReplayConfig.REPLAY_ID_CONFIG, config.replayId(), "replay of "
                    + config.dlqTopic() + " stopped: the topic was deleted" + (now.isPresent() ? " and created again"
                    + " (topic id " + progress.dlqTopicId() + ", now " + now.get() + ")" : "") + " since the replay"
                    + " captured its range, whose offsets say nothing of a new topic; nothing of it was written."
                    + " Cancel this replay, and start a new one for the new topic");
        }
    }

    /**
     * @throws ConfigException naming {@code replay.written.ranges.max} when {@code written} holds more ranges: the
     *                         caller aborts the batch, so the committed progress stays exact
     */
    static void requireWithinRangeLimit(ReplayConfig config, WrittenOffsets written) {
        if (written.totalCount() > config.writtenRangesMax()) {
            throw new ConfigException(ReplayConfig.WRITTEN_RANGES_MAX_CONFIG, config.writtenRangesMax(), "replay "
                    + config.replayId() + " stopped: the batch after its committed progress would make "
                    + written.totalCount() + " ranges of written dead letters, more than the limit. Nothing of that"
                    + " batch was committed; start the replay again with a higher "
                    + ReplayConfig.WRITTEN_RANGES_MAX_CONFIG + " to resume from its committed progress, or cancel it");
        }
    }

    /**
     * What the finished replays of this dead-letter topic (other than this one) wrote: of the topic by this name and
     * {@code dlqTopicId}, not of an earlier topic deleted under the same name.
     */
    static WrittenOffsets alreadyReplayed(ReplayConfig config, Collection<ReplayProgress> replays, Uuid dlqTopicId) {
        WrittenOffsets all = WrittenOffsets.NONE;
        for (ReplayProgress other : replays) {
            if (other.finished() && other.dlqTopic().equals(config.dlqTopic())
                    && other.dlqTopicId().equals(dlqTopicId)
                    && !other.replayId().equals(config.replayId())) {
                all = all.union(other.written());
            }
        }
        return all;
    }
}
