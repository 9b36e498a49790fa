package dev.quarantine.replay;

import org.apache.kafka.common.KafkaException;

/**
 * A replay was not started: another replay of the same dead-letter topic is RUNNING and their ranges overlap
 * ({@link RunningReplays}). The message names the running replay and says how to resume or cancel it; nothing of
 * this replay's range was written.
 */
public final class ReplayOverlapException extends KafkaException {

    private final String runningReplayId;

    ReplayOverlapException(ReplayConfig config, ReplayProgress running, int partition, boolean cancelled) {
        super("Replay " + config.replayId() + " of " + config.dlqTopic() + " was not started"
                + (cancelled ? " (and is cancelled: start a new replay once the other is finished)" : "")
                + ": replay " + running.replayId() + " of the same topic is RUNNING (last progress "
                + running.updatedAt() + ", " + running.offsetsRead() + " of " + running.offsetsInRange()
                + " offsets read) and both ranges hold offsets of partition " + partition + ". Wait until it is DONE."
                + " If its process stopped, resume it (bin/quarantine replay --dlq " + config.dlqTopic()
                + " --replay-id " + running.replayId() + progressOption(config) + " with its other options, or"
                + " restart its connector's task) or cancel it (bin/quarantine replay --dlq " + config.dlqTopic()
                + " --replay-id " + running.replayId() + progressOption(config) + " --cancel, or DELETE /dead-letters/"
                + config.dlqTopic() + "/replays/" + running.replayId() + " on a worker with the monitor)");
        this.runningReplayId = running.replayId();
    }

    /** The id of the RUNNING replay whose range overlaps. */
    public String runningReplayId() {
        return runningReplayId;
    }

    private static String progressOption(ReplayConfig config) {
        return config.progressTopic().equals(ReplayConfig.PROGRESS_TOPIC_DEFAULT) ? ""
                : " --progress-topic " + config.progressTopic();
    }
}
