package dev.quarantine.replay;

import org.apache.kafka.common.KafkaException;

/**
 * Another instance of the replay (the same {@code replay.id}, so the same transactional.id) started after this one
 * and fenced it: it resumes from the committed progress, this one must stop writing and be closed. The cause is the
 * producer's fencing error.
 */
public final class ReplayTakenOverException extends KafkaException {

    public ReplayTakenOverException(String replayId, Throwable cause) {
        super("Replay " + replayId + " was taken over by a newer instance with the same replay id; this one stops",
                cause);
    }
}
