package dev.quarantine.connect.rest.http;

import java.util.function.Supplier;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import dev.quarantine.connect.rest.MonitorConfig;
import dev.quarantine.connect.rest.RefusalEndpoint;

/**
 * Turns what a user's endpoint computed into the answer: JSON, or for an error a short body with a request id whose
 * details (addresses, causes) go to the worker log under that id ({@link ErrorBody}). Users' requests take a slot of
 * their own ({@link RequestSlots}; other workers' requests have theirs, so users waiting for peers never starve
 * them); one beyond waits up to the store wait, then gets 503.
 */
public final class Answers {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final RequestSlots users;
    private final int retryAfterSeconds;

    public Answers(MonitorConfig config) {
        this.users = new RequestSlots(config.maxConcurrentRequests(), config.queryRetry());
        this.retryAfterSeconds = config.retryAfterSeconds();
    }

    /** A user's request: {@code body} as JSON, or the error it throws. */
    public Response json(Supplier<Object> body) {
        return respond(() -> Response.ok(toJson(body.get()), MediaType.APPLICATION_JSON_TYPE).build());
    }

    /** A user's request answered with a status of its own ({@code 202} and a Location), or the error it throws. */
    public Response respond(Supplier<Response> answer) {
        try {
            return users.call(answer);
        } catch (MonitorException e) {
            return error(e);
        } catch (RuntimeException | LinkageError e) {
            return error(MonitorException.unexpected(e));
        }
    }

    /**
     * A request refused before its endpoint ran ({@link RequestGuard}): the error body with {@code message}, and the
     * log line with {@code detail} under its request id, as every error.
     */
    static Response refusal(int status, String category, String message, String detail) {
        return Response.status(status).type(MediaType.APPLICATION_JSON_TYPE)
                .entity(ErrorBody.logged(MonitorException.refused(status, category, message, detail))).build();
    }

    /** 501 with {@code reason}: the monitor cannot run on this worker (not logged: said once at start). */
    public static Response unsupported(String reason) {
        return Response.status(501).type(MediaType.APPLICATION_JSON_TYPE).entity(RefusalEndpoint.body(reason))
                .build();
    }

    private Response error(MonitorException e) {
        Response.ResponseBuilder response = Response.status(e.status()).type(MediaType.APPLICATION_JSON_TYPE)
                .entity(ErrorBody.logged(e));
        if (e.status() == 503 || e.status() == 429) {
            response.header(HttpHeaders.RETRY_AFTER, retryAfterSeconds);
        }
        return response.build();
    }

    private static String toJson(Object body) {
        try {
            return JSON.writeValueAsString(body);
        } catch (JsonProcessingException e) {
            throw MonitorException.fatal("could not write the answer as JSON", e);
        }
    }
}
