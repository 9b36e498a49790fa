package dev.quarantine.connect.rest.replays;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import dev.quarantine.replay.ReplayConfig;
import dev.quarantine.connect.rest.MonitorConfig;
import dev.quarantine.connect.rest.WorkerSettings;

/**
 * The destinations a replay started from the monitor may write, as the two settings every such replay connector gets
 * (a request cannot set them: {@link ReplayRequest}):
 *
 * <table>
 *   <caption>settings</caption>
 *   <tr><th>setting</th><th>value</th></tr>
 *   <tr><td>replay.destinations.allowed</td><td>{@code quarantine.monitor.replay.destinations.allowed}</td></tr>
 *   <tr><td>replay.destinations.denied</td><td>this worker's config.storage.topic,
 *       offset.storage.topic and status.storage.topic; the monitor's own topics (its Kafka Streams changelog and
 *       repartition topics, all named {@code <application.id>-...}, the application.id starting with the monitor's
 *       base id); the replays' progress topic; parking topics ({@code *.parking})</td></tr>
 * </table>
 *
 * The engine refuses Kafka-internal topics ({@code __*}), Connect's default worker topics ({@code connect-configs},
 * {@code connect-offsets}, {@code connect-status}), the replay's own progress and parking topics and the dead-letter
 * topic itself whatever these say.
 */
public record ReplayDestinations(String allowed, String denied) {

    static final String PARKING_SUFFIX = ".parking";
    private static final List<String> WORKER_TOPICS = List.of("config.storage.topic", "offset.storage.topic",
            "status.storage.topic");

    /** From the worker's settings and the monitor's base application.id ({@link WorkerSettings#applicationId()}). */
    public static ReplayDestinations of(MonitorConfig config, Map<String, ?> workerConfigs,
            String monitorApplicationId) {
        List<String> denied = new ArrayList<>();
        for (String key : WORKER_TOPICS) {
            Object topic = workerConfigs.get(key);
            if (topic != null && !topic.toString().isBlank()) {
                denied.add(Pattern.quote(topic.toString().trim()));
            }
        }
        denied.add(Pattern.quote(monitorApplicationId) + "-.*");
        denied.add(Pattern.quote(ReplayConfig.PROGRESS_TOPIC_DEFAULT));
        denied.add(".*" + Pattern.quote(PARKING_SUFFIX));
        return new ReplayDestinations(config.replayDestinationsAllowed(),
                String.join("|", denied.stream().map(part -> "(?:" + part + ")").toList()));
    }

    /** The two settings for a replay connector's config (or a dry run's). */
    Map<String, String> settings() {
        return Map.of(ReplayConfig.DESTINATIONS_ALLOWED_CONFIG, allowed, ReplayConfig.DESTINATIONS_DENIED_CONFIG,
                denied);
    }
}
