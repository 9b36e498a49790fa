package dev.quarantine.compat.connect;

import java.util.Arrays;
import java.util.List;

/**
 * What each part of the plugin archive should do on a Connect worker of a given version: the supported versions of
 * the README and docs/compatibility.md, as one table the tests check.
 *
 * <pre>
 * worker       | sink connector | monitor, worker's own kafka-streams    | monitor, worker without kafka-streams
 * -------------+----------------+----------------------------------------+--------------------------------------
 * 3.9          | works          | refused, /dead-letters answers 501     | refused, /dead-letters answers 501
 *              |                | (needs Connect 4.0, jakarta.ws.rs)     | (needs Connect 4.0, jakarta.ws.rs)
 * 4.0 to 4.4   | works          | works                                  | refused, /dead-letters answers 501
 *              |                |                                        | (add the worker's own kafka-streams)
 * 4.x with a   | works          | refused, /dead-letters answers 501     | (as 4.0 to 4.4)
 * newer        |                | (use the worker's own kafka-streams)   |
 * kafka-streams|                |                                        |
 * </pre>
 *
 * (The sink's metrics go through {@code SinkTaskContext.pluginMetrics()} from Connect 4.1 on, and are its own, under
 * the same names, before.)
 */
final class Expected {

    enum Outcome { WORKS, REFUSED_501 }

    private Expected() {
    }

    /** The monitor on a worker whose classpath has kafka-streams {@code streamsVersion} (its own, usually). */
    static Outcome monitorWithOwnStreams(String workerVersion, String streamsVersion) {
        return jakarta(workerVersion) && !newer(streamsVersion, workerVersion) ? Outcome.WORKS : Outcome.REFUSED_501;
    }

    static Outcome monitorWithoutStreams(String workerVersion) {
        return Outcome.REFUSED_501;
    }

    /** What a refusal of the monitor on a worker without kafka-streams says (the ERROR line and the 501 answer). */
    static List<String> refusalWithoutStreams(String workerVersion) {
        return jakarta(workerVersion)
                ? List.of("needs kafka-streams in the worker's classpath", "Add kafka-streams-" + workerVersion)
                : refusalOfConnect3(workerVersion);
    }

    /** What a refusal of the monitor on a worker with kafka-streams {@code streamsVersion} says. */
    static List<String> refusalWithOwnStreams(String workerVersion, String streamsVersion) {
        return jakarta(workerVersion)
                ? List.of("needs the worker's own version of kafka-streams", "this worker runs kafka-clients "
                        + workerVersion + " with kafka-streams " + streamsVersion, "Put kafka-streams-"
                        + workerVersion + ".jar in the worker's classpath instead")
                : refusalOfConnect3(workerVersion);
    }

    private static List<String> refusalOfConnect3(String workerVersion) {
        return List.of("needs Kafka Connect 4.0 or later (jakarta.ws.rs)",
                "this worker runs Kafka " + workerVersion + " (javax.ws.rs)",
                "Upgrade the worker to Kafka Connect 4.0 or later");
    }

    private static boolean newer(String version, String than) {
        return Arrays.compare(numbers(version), numbers(than)) > 0;
    }

    private static int[] numbers(String version) {
        return Arrays.stream(version.split("\\.")).mapToInt(Integer::parseInt).toArray();
    }

    /** Connect 4.0 moved its REST API from javax.ws.rs to jakarta.ws.rs. */
    private static boolean jakarta(String workerVersion) {
        return Integer.parseInt(workerVersion.split("\\.")[0]) >= 4;
    }
}
