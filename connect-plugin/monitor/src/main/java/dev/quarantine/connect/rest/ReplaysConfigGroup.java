package dev.quarantine.connect.rest;

import static dev.quarantine.connect.rest.MonitorConfig.REPLAY_DESTINATIONS_ALLOWED_CONFIG;
import static dev.quarantine.connect.rest.MonitorConfig.REPLAY_DRY_RUN_MAX_CONCURRENT_CONFIG;
import static dev.quarantine.connect.rest.MonitorConfig.REPLAY_DRY_RUN_MAX_CONCURRENT_DEFAULT;
import static dev.quarantine.connect.rest.MonitorConfig.REPLAY_DRY_RUN_TIMEOUT_MS_CONFIG;
import static dev.quarantine.connect.rest.MonitorConfig.REPLAY_DRY_RUN_TIMEOUT_MS_DEFAULT;

import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigDef.Width;

/**
 * The {@link MonitorConfig} settings of the group "Replays": where a replay started from the monitor may write, and
 * how dry runs are bounded. Their docs and definitions; the keys and defaults stay in {@link MonitorConfig}, where the
 * code and the tests name them.
 */
final class ReplaysConfigGroup {

    static final String NAME = "Replays";

    private static final String REPLAY_DESTINATIONS_ALLOWED_DOC = "A Java regular expression: the topics a replay"
            + " started with POST /dead-letters/{topic}/replays may write when a dead letter's own headers name its"
            + " destination (destination 'original', the default, or 'source'); a topic must match it in full. It"
            + " becomes the replay connector's replay.destinations.allowed, and a request cannot change it. Empty (the"
            + " default): no destination a header names is written; such a replay is refused with 400 naming this"
            + " setting, a dry run shows those dead letters as refused, and only a replay to one topic the request"
            + " names runs. That is the safe default on a shared cluster: whoever can write to a dead-letter topic"
            + " chooses its headers, and the replay writes with the worker's Kafka principal, so allow only the"
            + " topics those writers could write themselves (for example orders|payments\\..*). Whatever it allows,"
            + " a replay never writes a Kafka-internal topic (__*), this worker's config, offset and status topics,"
            + " the monitor's own topics (<application.id>-*), the replays' progress topic, a parking topic (*.parking)"
            + " or the dead-letter topic replayed: such a dead letter is counted as refused.";

    private static final String REPLAY_DRY_RUN_TIMEOUT_MS_DOC = "How long a dry run (POST"
            + " /dead-letters/{topic}/replays with \"dryRun\": true) may read the dead-letter topic before it answers"
            + " with what it read so far (complete: false).";

    private static final String REPLAY_DRY_RUN_MAX_CONCURRENT_DOC = "How many dry runs this worker runs at once; each"
            + " opens a consumer and an admin client and reads for up to " + REPLAY_DRY_RUN_TIMEOUT_MS_CONFIG + ". One"
            + " more is answered 429 with Retry-After at once, naming this setting.";

    private ReplaysConfigGroup() {
    }

    static void define(ConfigDef def) {
        new MonitorConfigGroup(def, NAME)
                .define(REPLAY_DESTINATIONS_ALLOWED_CONFIG, Type.STRING, "", new MonitorValidators.Regex(),
                        Importance.HIGH, REPLAY_DESTINATIONS_ALLOWED_DOC, Width.LONG, "Replay destinations allowed")
                .durationMs(REPLAY_DRY_RUN_TIMEOUT_MS_CONFIG, REPLAY_DRY_RUN_TIMEOUT_MS_DEFAULT, 60_000L,
                        REPLAY_DRY_RUN_TIMEOUT_MS_DOC, "Dry run time limit")
                .count(REPLAY_DRY_RUN_MAX_CONCURRENT_CONFIG, REPLAY_DRY_RUN_MAX_CONCURRENT_DEFAULT, 64,
                        REPLAY_DRY_RUN_MAX_CONCURRENT_DOC, "Dry runs at once");
    }
}
