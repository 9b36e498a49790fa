package dev.quarantine.compat.connect;

/**
 * What each part of the plugin archive should do on a Connect worker of a given version: the supported versions of
 * the README and docs/compatibility.md, as one table the tests check.
 *
 * <pre>
 * worker       | sink connector | monitor, worker's own kafka-streams | monitor, worker without kafka-streams
 * -------------+----------------+-------------------------------------+--------------------------------------
 * 3.9          | not supported  | refused, /dead-letters not there    | refused, /dead-letters not there
 * 4.0          | not supported  | works                               | refused, /dead-letters answers 501
 * 4.1 to 4.4   | works          | works                               | refused, /dead-letters answers 501
 * </pre>
 *
 * The sink connector's metrics use {@code SinkTaskContext.pluginMetrics()}, which Kafka 4.1 added: on older workers
 * its tasks fail at start, saying so, until it falls back to metrics of its own there (issue 12, deliverable 1).
 */
final class Expected {

    enum Outcome { WORKS, NOT_SUPPORTED, REFUSED_NOT_REGISTERED, REFUSED_501 }

    private Expected() {
    }

    static Outcome sink(String workerVersion) {
        String[] parts = workerVersion.split("\\.");
        boolean hasPluginMetrics = Integer.parseInt(parts[0]) > 4
                || Integer.parseInt(parts[0]) == 4 && Integer.parseInt(parts[1]) >= 1;
        return hasPluginMetrics ? Outcome.WORKS : Outcome.NOT_SUPPORTED;
    }

    static Outcome monitorWithOwnStreams(String workerVersion) {
        return jakarta(workerVersion) ? Outcome.WORKS : Outcome.REFUSED_NOT_REGISTERED;
    }

    static Outcome monitorWithoutStreams(String workerVersion) {
        return jakarta(workerVersion) ? Outcome.REFUSED_501 : Outcome.REFUSED_NOT_REGISTERED;
    }

    /** Connect 4.0 moved its REST API from javax.ws.rs to jakarta.ws.rs. */
    private static boolean jakarta(String workerVersion) {
        return Integer.parseInt(workerVersion.split("\\.")[0]) >= 4;
    }
}
