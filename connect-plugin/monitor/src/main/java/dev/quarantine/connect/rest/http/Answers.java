package dev.quarantine.connect.rest.http;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import dev.quarantine.connect.rest.aggregation.Codec;
import dev.quarantine.connect.rest.MonitorConfig;
import dev.quarantine.connect.rest.peers.PeerAuth;
import dev.quarantine.connect.rest.peers.PeerServer;
import dev.quarantine.connect.rest.RefusalEndpoint;

/**
 * Turns what an endpoint computed into the answer: JSON for users, {@link Codec} bytes signed for peers, and for
 * an error a short body with a request id, whose details (addresses, causes) go to the worker log under that id.
 * Bounds how many monitor requests run at once (users and peers apart, so users waiting for peers never starve
 * them); one beyond waits up to the store wait, then gets 503.
 */
public final class Answers {

    private static final Logger log = LoggerFactory.getLogger(Answers.class);
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Semaphore users;
    private final Semaphore peers;
    private final Duration wait;
    private final int retryAfterSeconds;
    private final PeerAuth auth;

    private final LogLimiter refusalLog = new LogLimiter(60_000);

    public Answers(MonitorConfig config, PeerAuth auth) {
        this.users = new Semaphore(config.maxConcurrentRequests());
        this.peers = new Semaphore(config.maxConcurrentRequests());
        this.wait = config.queryRetry();
        this.retryAfterSeconds = config.retryAfterSeconds();
        this.auth = auth;
    }

    /** A user's request: {@code body} as JSON, or the error it throws. */
    public Response json(Supplier<Object> body) {
        try {
            return limited(users, () -> Response.ok(JSON.writeValueAsString(body.get()),
                    MediaType.APPLICATION_JSON_TYPE).build());
        } catch (MonitorException e) {
            return error(e);
        } catch (RuntimeException | LinkageError e) {
            return error(unexpected(e));
        }
    }

    /** A user's request answered with a status of its own ({@code 202} and a Location), or the error it throws. */
    public Response respond(Supplier<Response> answer) {
        try {
            return limited(users, answer::get);
        } catch (MonitorException e) {
            return error(e);
        } catch (RuntimeException | LinkageError e) {
            return error(unexpected(e));
        }
    }

    /**
     * A peer's request: {@code verify} checks its proof (an error then is not signed), {@code body} reads the share;
     * the answer, share or error, is signed for the request's {@code nonce}.
     */
    public PeerServer.Answer peer(Runnable verify, String nonce, Supplier<byte[]> body) {
        try {
            verify.run();
        } catch (MonitorException e) {
            return peerRefusal(e); // a captured request sent again fails here as often as it is sent
        }
        try {
            byte[] bytes = limited(peers, body::get);
            return new PeerServer.Answer(200, auth.signAnswer(nonce, 200, bytes), null, bytes);
        } catch (MonitorException e) {
            return peerError(e, nonce);
        } catch (RuntimeException | LinkageError e) {
            return peerError(unexpected(e), nonce);
        }
    }

    private interface Answer<T> {
        T get() throws JsonProcessingException;
    }

    private <T> T limited(Semaphore permits, Answer<T> answer) {
        boolean acquired;
        try {
            acquired = permits.tryAcquire(wait.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw MonitorException.retryable("interrupted while waiting for a free monitor request slot", e);
        }
        if (!acquired) {
            throw MonitorException.retryable("more monitor requests at once than "
                    + MonitorConfig.MAX_CONCURRENT_REQUESTS_CONFIG, null);
        }
        try {
            return answer.get();
        } catch (JsonProcessingException e) {
            throw MonitorException.fatal("could not write the answer as JSON", e);
        } finally {
            permits.release();
        }
    }

    /**
     * A request refused before its endpoint ran ({@link RequestGuard}): the error body with {@code message}, and the
     * log line with {@code detail} under its request id, as every error.
     */
    static Response refusal(int status, String category, String message, String detail) {
        return Response.status(status).type(MediaType.APPLICATION_JSON_TYPE)
                .entity(errorBody(MonitorException.refused(status, category, message, detail))).build();
    }

    /** 501 with {@code reason}: the monitor cannot run on this worker (not logged: said once at start). */
    public static Response unsupported(String reason) {
        return Response.status(501).type(MediaType.APPLICATION_JSON_TYPE).entity(RefusalEndpoint.body(reason))
                .build();
    }

    private static MonitorException unexpected(Throwable e) {
        return MonitorException.fatal("unexpected error", e);
    }

    private Response error(MonitorException e) {
        Response.ResponseBuilder response = Response.status(e.status()).type(MediaType.APPLICATION_JSON_TYPE)
                .entity(errorBody(e));
        if (e.status() == 503 || e.status() == 429) {
            response.header(HttpHeaders.RETRY_AFTER, retryAfterSeconds);
        }
        return response.build();
    }

    /**
     * The unsigned refusal of a peer request that does not prove itself. Anyone who reaches the peer port can send
     * such requests as fast as they like, so the log gets the first, then at most one line a minute with a count.
     */
    public PeerServer.Answer peerRefusal(MonitorException e) {
        String requestId = UUID.randomUUID().toString();
        long refusals = refusalLog.event(TimeUnit.NANOSECONDS.toMillis(System.nanoTime()));
        if (refusals > 0) {
            log.info("Dead-letter monitor: request {} answered {}: {} ({} unproven peer requests refused since the"
                    + " last such line; at most one line a minute)", requestId, e.status(), e.getMessage(), refusals);
        }
        byte[] body = errorBody(e, requestId);
        return new PeerServer.Answer(e.status(), null, e.status() == 503 ? retryAfterSeconds : null, body);
    }

    private PeerServer.Answer peerError(MonitorException e, String nonce) {
        byte[] body = errorBody(e);
        return new PeerServer.Answer(e.status(), nonce == null ? null : auth.signAnswer(nonce, e.status(),
                body), e.status() == 503 ? retryAfterSeconds : null, body);
    }

    /** The short body of an error answer; its details go to the log under the request id in it. */
    private static byte[] errorBody(MonitorException e) {
        String requestId = UUID.randomUUID().toString();
        logError(requestId, e);
        return errorBody(e, requestId);
    }

    private static byte[] errorBody(MonitorException e, String requestId) {
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
