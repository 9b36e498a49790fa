package dev.quarantine.connect.rest.http;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * The short JSON body of an error answer, users' and other workers' alike: status, public message, category and a
 * request id. The details (addresses, causes) go to the worker log under that id, never into the body.
 */
public final class ErrorBody {

    private static final Logger log = LoggerFactory.getLogger(ErrorBody.class);
    private static final ObjectMapper JSON = new ObjectMapper();

    private ErrorBody() {
    }

    /** The body of {@code e} under a new request id, its details logged under that id. */
    public static byte[] logged(MonitorException e) {
        String requestId = UUID.randomUUID().toString();
        logError(requestId, e);
        return of(e, requestId);
    }

    /** The body of {@code e} under {@code requestId}; logging it is the caller's. */
    public static byte[] of(MonitorException e, String requestId) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("error_code", e.status());
        body.put("message", e.publicMessage());
        body.put("category", e.category());
        body.put("request_id", requestId);
        return toJson(body).getBytes(StandardCharsets.UTF_8);
    }

    /** The details may quote what the caller sent (a topic, a field, a header): escaped ({@link LogText}). */
    private static void logError(String requestId, MonitorException e) {
        String detail = LogText.escape(e.getMessage());
        if (e.status() == 500) {
            log.warn("Dead-letter monitor: request {} answered 500: {}", requestId, detail, e.getCause());
        } else if (e.status() >= 500 || e.status() == MonitorException.MISDIRECTED) {
            log.info("Dead-letter monitor: request {} answered {}: {}{}", requestId, e.status(), detail,
                    e.getCause() == null ? "" : " (" + LogText.escape(e.getCause()) + ")");
        } else {
            log.info("Dead-letter monitor: request {} answered {}: {}", requestId, e.status(), detail);
        }
    }

    private static String toJson(Map<String, Object> body) {
        try {
            return JSON.writeValueAsString(body);
        } catch (JsonProcessingException e) {
            return "{\"error_code\":500,\"message\":\"could not write the error\",\"category\":\"FATAL\"}";
        }
    }
}
