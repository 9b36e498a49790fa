package dev.quarantine.connect.rest;

/**
 * An answer other than 200, decided where the error was classified: its HTTP status, the category shown in the body
 * ({@code RETRYABLE}, {@code MIGRATED}, {@code FATAL} for store errors; {@code BAD_REQUEST}, {@code NOT_FOUND} for
 * the caller's), and for a 421 the worker that owns the data.
 */
final class MonitorException extends RuntimeException {

    static final int MISDIRECTED = 421;

    private final int status;
    private final String category;
    private final String owner;

    private MonitorException(int status, String category, String message, String owner, Throwable cause) {
        super(message, cause);
        this.status = status;
        this.category = category;
        this.owner = owner;
    }

    static MonitorException retryable(String message, Throwable cause) {
        return new MonitorException(503, "RETRYABLE", message, null, cause);
    }

    static MonitorException migrated(String owner, String message, Throwable cause) {
        return new MonitorException(MISDIRECTED, "MIGRATED", message, owner, cause);
    }

    static MonitorException fatal(String message, Throwable cause) {
        return new MonitorException(500, "FATAL", message, null, cause);
    }

    static MonitorException badRequest(String message) {
        return new MonitorException(400, "BAD_REQUEST", message, null, null);
    }

    static MonitorException notFound(String message) {
        return new MonitorException(404, "NOT_FOUND", message, null, null);
    }

    int status() {
        return status;
    }

    String category() {
        return category;
    }

    /** For a 421: the owner's REST URL, or {@code null} when no worker is known to own the data. */
    String owner() {
        return owner;
    }
}
