package dev.quarantine.connect.rest.peers;

import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.quarantine.connect.rest.MonitorConfig;
import dev.quarantine.connect.rest.aggregation.Codec;
import dev.quarantine.connect.rest.http.ErrorBody;
import dev.quarantine.connect.rest.http.LogLimiter;
import dev.quarantine.connect.rest.http.MonitorException;
import dev.quarantine.connect.rest.http.RequestSlots;

/**
 * Turns what the peer endpoint computed into the answer to another worker: this worker's share ({@link Codec} bytes)
 * or an error's short body ({@link ErrorBody}), signed for the request's nonce ({@link PeerAuth}) once the request
 * proved itself. Other workers' requests take slots of their own ({@link RequestSlots}, as many as users have), so
 * that users waiting for peers never starve them.
 */
public final class PeerAnswers {

    private static final Logger log = LoggerFactory.getLogger(PeerAnswers.class);

    private final RequestSlots peers;
    private final int retryAfterSeconds;
    private final PeerAuth auth;
    private final LogLimiter refusalLog = new LogLimiter(60_000);

    public PeerAnswers(MonitorConfig config, PeerAuth auth) {
        this.peers = new RequestSlots(config.maxConcurrentRequests(), config.queryRetry());
        this.retryAfterSeconds = config.retryAfterSeconds();
        this.auth = auth;
    }

    /**
     * A peer's request: {@code verify} checks its proof (an error then is not signed), {@code share} reads this
     * worker's share; the answer, share or error, is signed for the request's {@code nonce}.
     */
    public PeerServer.Answer share(Runnable verify, String nonce, Supplier<byte[]> share) {
        try {
            verify.run();
        } catch (MonitorException e) {
            return refusal(e); // a captured request sent again fails here as often as it is sent
        }
        try {
            byte[] bytes = peers.call(share);
            return new PeerServer.Answer(200, auth.signAnswer(nonce, 200, bytes), null, bytes);
        } catch (MonitorException e) {
            return error(e, nonce);
        } catch (RuntimeException | LinkageError e) {
            return error(MonitorException.unexpected(e), nonce);
        }
    }

    /**
     * The unsigned refusal of a peer request that does not prove itself. Anyone who reaches the peer port can send
     * such requests as fast as they like, so the log gets the first, then at most one line a minute with a count.
     */
    public PeerServer.Answer refusal(MonitorException e) {
        String requestId = UUID.randomUUID().toString();
        long refusals = refusalLog.event(TimeUnit.NANOSECONDS.toMillis(System.nanoTime()));
        if (refusals > 0) {
            log.info("Dead-letter monitor: request {} answered {}: {} ({} unproven peer requests refused since the"
                    + " last such line; at most one line a minute)", requestId, e.status(), e.getMessage(), refusals);
        }
        byte[] body = ErrorBody.of(e, requestId);
        return new PeerServer.Answer(e.status(), null, retryAfter(e), body);
    }

    private PeerServer.Answer error(MonitorException e, String nonce) {
        byte[] body = ErrorBody.logged(e);
        return new PeerServer.Answer(e.status(), nonce == null ? null : auth.signAnswer(nonce, e.status(), body),
                retryAfter(e), body);
    }

    private Integer retryAfter(MonitorException e) {
        return e.status() == 503 ? retryAfterSeconds : null;
    }
}
