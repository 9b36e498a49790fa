package dev.quarantine.connect.rest.replays;

import java.util.LinkedHashMap;
import java.util.Map;

import dev.quarantine.replay.DryRunReport;
import dev.quarantine.replay.ReplayCounts;
import dev.quarantine.replay.ReplayProgress;

/** The JSON answer of {@code GET /dead-letters/{topic}/replays/{id}}: a replay's state, counts and range read. */
final class ReplayView {

    private ReplayView() {
    }

    static Map<String, Object> of(ReplayProgress progress) {
        Map<String, Object> view = new LinkedHashMap<>();
        view.put("id", progress.replayId());
        view.put("dlqTopic", progress.dlqTopic());
        view.put("state", progress.state().name());
        view.put("counts", counts(progress.counts()));
        view.put("offsetsRead", progress.offsetsRead());
        view.put("offsetsInRange", progress.offsetsInRange());
        view.put("startedAt", progress.startedAt().toString());
        view.put("updatedAt", progress.updatedAt().toString());
        return view;
    }

    /** The answer of a dry run: where the dead letters would go, and what else would happen to them. */
    static Map<String, Object> of(String topic, DryRunReport report) {
        Map<String, Object> view = new LinkedHashMap<>();
        view.put("dryRun", true);
        view.put("dlqTopic", topic);
        view.put("byDestination", report.byDestination());
        view.put("counts", counts(report.counts()));
        view.put("complete", report.complete());
        view.put("until", report.until());
        return view;
    }

    private static Map<String, Object> counts(ReplayCounts c) {
        Map<String, Object> counts = new LinkedHashMap<>();
        counts.put("replayed", c.replayed());
        counts.put("deadLetteredAgain", c.deadLetteredAgain());
        counts.put("parked", c.parked());
        counts.put("skippedByFilter", c.skippedByFilter());
        counts.put("skippedTruncated", c.skippedTruncated());
        counts.put("skippedUnroutable", c.skippedUnroutable());
        counts.put("refused", c.refused());
        counts.put("alreadyReplayed", c.alreadyReplayed());
        return counts;
    }

    /** A replay whose connector exists but which has committed no progress yet. */
    static Map<String, Object> starting(String id, String topic) {
        Map<String, Object> starting = new LinkedHashMap<>();
        starting.put("id", id);
        starting.put("dlqTopic", topic);
        starting.put("state", "STARTING");
        return starting;
    }
}
