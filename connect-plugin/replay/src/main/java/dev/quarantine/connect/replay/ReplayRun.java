package dev.quarantine.connect.replay;

import java.util.function.Supplier;

import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.RetriableException;
import org.apache.kafka.connect.errors.ConnectException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.quarantine.replay.ReplayCounts;
import dev.quarantine.replay.ReplayEngine;
import dev.quarantine.replay.ReplayProgress;
import dev.quarantine.replay.ReplayTakenOverException;

/**
 * Drives one replay engine a step at a time and decides what each step's failure means for the task:
 *
 * <table>
 * <caption>After a step</caption>
 * <tr><th>step</th><th>then</th></tr>
 * <tr><td>committed, range not done</td><td>step again</td></tr>
 * <tr><td>committed, range done (or cancelled)</td><td>log the counts once; write nothing more</td></tr>
 * <tr><td>retriable error (timeout, leader moved)</td><td>the engine aborted: step again</td></tr>
 * <tr><td>taken over (a newer instance of this replay fenced it: a rebalance, a restarted worker;
 *     {@link ReplayTakenOverException})</td><td>fail the task: it is a zombie, and the newer instance resumes from
 *     the committed progress</td></tr>
 * <tr><td>any other error</td><td>fail the task with the cause; restarting it resumes from the committed
 *     progress</td></tr>
 * </table>
 */
final class ReplayRun {

    private static final Logger log = LoggerFactory.getLogger(ReplayRun.class);

    private final Supplier<ReplayProgress> start;
    private final Supplier<ReplayProgress> step;
    private ReplayProgress progress;
    private boolean reportedFinished;

    ReplayRun(ReplayEngine engine) {
        this(engine::start, engine::step);
    }

    /** For tests: {@code start} and {@code step} stand in for the engine's. */
    ReplayRun(Supplier<ReplayProgress> start, Supplier<ReplayProgress> step) {
        this.start = start;
        this.step = step;
    }

    /** Fences an older instance and loads (or captures) the replay's progress. */
    ReplayProgress start() {
        progress = start.get();
        log.info("Replay {} of {} {}: {} of {} offsets read", progress.replayId(), progress.dlqTopic(),
                progress.finished() ? "already " + progress.state() : "resumes", progress.offsetsRead(),
                progress.offsetsInRange());
        return progress;
    }

    /** One transaction of the replay; true while there is more to do. */
    boolean step() {
        if (progress.finished()) {
            reportFinished();
            return false;
        }
        try {
            progress = step.get();
        } catch (RetriableException e) {
            log.warn("Replay {}: a step failed (its transaction aborted, or its commit still awaiting its answer);"
                    + " trying again: {}", progress.replayId(), e.toString());
            return true;
        } catch (KafkaException e) {
            if (e instanceof ReplayTakenOverException) {
                throw new ConnectException("Replay " + progress.replayId() + " was taken over by a newer instance of"
                        + " it (a rebalance or a restarted worker); this task stops writing", e);
            }
            throw new ConnectException("Replay " + progress.replayId() + " of " + progress.dlqTopic() + " failed; its"
                    + " committed progress is kept, restart the task to resume", e);
        }
        if (progress.finished()) {
            reportFinished();
            return false;
        }
        return true;
    }

    ReplayProgress progress() {
        return progress;
    }

    private void reportFinished() {
        if (reportedFinished) {
            return;
        }
        reportedFinished = true;
        ReplayCounts c = progress.counts();
        log.info("Replay {} of {} is {}: replayed {}, dead-lettered again {}, parked {}, skipped by filter {}, skipped"
                        + " as truncated {}, skipped without a destination {}, refused destination {}, already replayed"
                        + " {}; this connector writes nothing more and can be deleted", progress.replayId(),
                progress.dlqTopic(), progress.state(), c.replayed(), c.deadLetteredAgain(), c.parked(),
                c.skippedByFilter(), c.skippedTruncated(), c.skippedUnroutable(), c.refused(), c.alreadyReplayed());
    }
}
