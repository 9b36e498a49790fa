package dev.quarantine.compat.connect;

/**
 * What each part of the plugin archive should do on a Connect worker of a given version: the supported versions of
 * the README and docs/compatibility.md, as one table the tests check.
 *
 * <pre>
 * worker       | sink connector | monitor, worker's own kafka-streams | monitor, worker without kafka-streams
 * -------------+----------------+-------------------------------------+--------------------------------------
 * 3.9          | works          | refused, /dead-letters not there    | refused, /dead-letters not there
 * 4.0 to 4.4   | works          | works                               | refused, /dead-letters answers 501
 * </pre>
 *
 * (The sink's metrics go through {@code SinkTaskContext.pluginMetrics()} from Connect 4.1 on, and are its own, under
 * the same names, before.)
 */
final class Expected {

    enum Outcome { WORKS, REFUSED_NOT_REGISTERED, REFUSED_501 }

    private Expected() {
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
