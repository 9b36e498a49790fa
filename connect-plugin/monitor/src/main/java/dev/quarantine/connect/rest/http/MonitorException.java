package dev.quarantine.connect.rest.http;

/**
 * An answer other than 200, decided where the error was classified: its HTTP status, the category shown in the body
 * ({@code RETRYABLE}, {@code MIGRATED}, {@code FATAL} for store errors; {@code BAD_REQUEST}, {@code NOT_FOUND},
 * {@code CONFLICT}, {@code UNAUTHORIZED}, {@code FORBIDDEN}, {@code TOO_LARGE}, {@code UNSUPPORTED_MEDIA_TYPE} for the
 * caller's), a short public message, and the details (addresses, causes) for the worker log only: an answer never
 * carries another worker's address or an exception's message.
 */
public final class MonitorException extends RuntimeException {

    public static final int MISDIRECTED = 421;

    private final int status;
    private final String category;
    private final String publicMessage;

    private MonitorException(int status, String category, String publicMessage, String detail, Throwable cause) {
        super(detail, cause);
        this.status = status;
        this.category = category;
        this.publicMessage = publicMessage;
    }

    public static MonitorException retryable(String detail, Throwable cause) {
        return new MonitorException(503, "RETRYABLE", "the dead-letter figures are not available right now (the"
                + " monitor is starting or rebalancing, or a worker did not answer); retry later", detail, cause);
    }

    /**
     * 503 when a call the request needed failed for now: {@code publicMessage} says which and what to do (no address,
     * no exception message), {@code detail} and {@code cause} go to the log.
     */
    public static MonitorException unavailable(String publicMessage, String detail, Throwable cause) {
        return new MonitorException(503, "RETRYABLE", publicMessage, detail, cause);
    }

    /** 503 while the monitor cannot run: {@code reason} says what failed (no address, no exception message). */
    public static MonitorException notRunning(String reason) {
        return new MonitorException(503, "RETRYABLE", reason, reason, null);
    }

    public static MonitorException migrated(String detail, Throwable cause) {
        return new MonitorException(MISDIRECTED, "MIGRATED", "the dead-letter figures moved to another worker, which"
                + " did not answer; retry later", detail, cause);
    }

    public static MonitorException fatal(String detail, Throwable cause) {
        return new MonitorException(500, "FATAL", "the dead-letter monitor failed; the worker log has the details",
                detail, cause);
    }

    /** 500 for what no endpoint classified (a bug, a missing class): the cause goes to the log only. */
    public static MonitorException unexpected(Throwable cause) {
        return fatal("unexpected error", cause);
    }

    public static MonitorException badRequest(String message) {
        return new MonitorException(400, "BAD_REQUEST", message, message, null);
    }

    /**
     * What this worker's own REST API answered when the monitor called it for the caller (401/403 of its
     * authentication, 400 of a connector config, 409 while it rebalances): the same status, with its message.
     */
    public static MonitorException fromWorker(int status, String message) {
        if (status == 409 || status >= 500) {
            return new MonitorException(503, "RETRYABLE", message, message, null);
        }
        return new MonitorException(status, "WORKER", message, message, null);
    }

    /** 501: the request cannot be served on this worker, {@code message} says why and what to do instead. */
    public static MonitorException unsupported(String message) {
        return new MonitorException(501, "UNSUPPORTED", message, message, null);
    }

    /** 429: more requests of this kind at once than the worker allows; {@code message} names the setting. */
    public static MonitorException tooManyRequests(String message) {
        return new MonitorException(429, "TOO_MANY_REQUESTS", message, message, null);
    }

    /** 409: the request conflicts with what exists (a replay of the same range running); {@code message} says which. */
    public static MonitorException conflict(String message) {
        return new MonitorException(409, "CONFLICT", message, message, null);
    }

    /** 422: the request cannot be done as asked (an Idempotency-Key used for another request). */
    public static MonitorException unprocessable(String message) {
        return new MonitorException(422, "UNPROCESSABLE", message, message, null);
    }

    public static MonitorException notFound(String message) {
        return new MonitorException(404, "NOT_FOUND", message, message, null);
    }

    public static MonitorException unauthorized(String detail) {
        return new MonitorException(401, "UNAUTHORIZED", "this endpoint answers only workers of the dead-letter"
                + " monitor that prove it", detail, null);
    }

    /**
     * A request refused before its endpoint ran ({@link RequestGuard}: 403 cross-site, 413 too large, 415 not JSON).
     */
    static MonitorException refused(int status, String category, String message, String detail) {
        return new MonitorException(status, category, message, detail, null);
    }

    public static MonitorException forbidden(String detail) {
        return new MonitorException(403, "FORBIDDEN", "this worker answers no other worker", detail, null);
    }

    public int status() {
        return status;
    }

    public String category() {
        return category;
    }

    /** What the answer says; {@link #getMessage()} has the details for the log. */
    public String publicMessage() {
        return publicMessage;
    }
}
