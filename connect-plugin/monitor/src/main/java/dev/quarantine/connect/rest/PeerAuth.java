package dev.quarantine.connect.rest;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.time.Clock;
import java.time.Duration;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

import org.apache.kafka.common.config.types.Password;

/**
 * How workers of the aggregation prove to each other that they belong to the cluster: an HMAC-SHA256, keyed with
 * {@code quarantine.monitor.peer.secret}, over the request (method, path, the address it is sent to, its query
 * parameters, the time it was signed, the SHA-256 of its body), and over the answer (bound to the request's
 * signature, its status and the SHA-256 of its body).
 *
 * <p>What each part stops: the address binds a request to the worker it was meant for, so a forged member of the
 * aggregation's group that receives a signed request cannot replay it to a real worker; the time bounds a replay of a
 * captured request to {@link #MAX_AGE}; the answer's signature, bound to the request, means figures are used only
 * from a worker that holds the secret. Signatures are compared in constant time.
 */
final class PeerAuth {

    static final String TIME_HEADER = "X-Quarantine-Peer-Time";
    static final String SIGNATURE_HEADER = "X-Quarantine-Peer-Signature";
    /** How far a request's time may be from this worker's clock (either way). */
    static final Duration MAX_AGE = Duration.ofSeconds(30);
    private static final String ALGORITHM = "HmacSHA256";
    private static final String EMPTY_BODY = digest(new byte[0]);

    /** What a request carries to prove where it comes from. */
    record Proof(long timeMs, String signature) {
    }

    private final SecretKeySpec key;
    private final Clock clock;

    PeerAuth(Optional<Password> secret, Clock clock) {
        this.key = secret.map(s -> new SecretKeySpec(s.value().getBytes(StandardCharsets.UTF_8), ALGORITHM))
                .orElse(null);
        this.clock = clock;
    }

    /** Whether this worker has a secret, so can ask and answer other workers. */
    boolean enabled() {
        return key != null;
    }

    /** The proof of a GET request to {@code target} ({@code host:port}) for {@code path}. */
    Proof signRequest(String target, String path, Map<String, String> params) {
        long now = clock.millis();
        return new Proof(now, sign(request("GET", target, path, params, now)));
    }

    /**
     * Checks a request's proof.
     *
     * @param self this worker's {@code host:port}, the address the request must have been signed for
     * @throws MonitorException 403 when this worker has no secret, 401 when the proof is missing, stale or wrong
     */
    void verifyRequest(String self, String path, Map<String, String> params, String time, String signature) {
        if (!enabled()) {
            throw MonitorException.forbidden("a request for this worker's share, but " + MonitorConfig.PEER_SECRET_CONFIG
                    + " is not set here: set the same secret on every worker");
        }
        if (time == null || signature == null) {
            throw MonitorException.unauthorized("a request for this worker's share without a peer signature");
        }
        long timeMs;
        try {
            timeMs = Long.parseLong(time.trim());
        } catch (NumberFormatException e) {
            throw MonitorException.unauthorized("a request for this worker's share with a malformed time");
        }
        if (Math.abs(clock.millis() - timeMs) > MAX_AGE.toMillis()) {
            throw MonitorException.unauthorized("a request for this worker's share signed at " + timeMs + ", more than "
                    + MAX_AGE.toSeconds() + " s from now: a replay, or clocks apart");
        }
        if (!matches(request("GET", self, path, params, timeMs), signature)) {
            throw MonitorException.unauthorized("a request for this worker's share with a wrong signature (another"
                    + " " + MonitorConfig.PEER_SECRET_CONFIG + ", or signed for another address)");
        }
    }

    /** The signature of an answer with {@code status} and {@code body} to the request signed {@code request}. */
    String signAnswer(String request, int status, byte[] body) {
        return sign(answer(request, status, body));
    }

    /** Whether {@code signature} proves that a worker with the secret gave this answer to this request. */
    boolean verifiesAnswer(String request, int status, byte[] body, String signature) {
        return signature != null && matches(answer(request, status, body), signature);
    }

    private static String request(String method, String target, String path, Map<String, String> params,
                                  long timeMs) {
        StringBuilder text = new StringBuilder("quarantine-peer-request-v1\n").append(method).append('\n')
                .append(path).append('\n').append(target).append('\n');
        SortedMap<String, String> sorted = new TreeMap<>(params);
        sorted.forEach((name, value) -> text.append(name).append('=').append(value).append('\n'));
        return text.append(timeMs).append('\n').append(EMPTY_BODY).toString();
    }

    private static String answer(String request, int status, byte[] body) {
        return "quarantine-peer-answer-v1\n" + request + "\n" + status + "\n" + digest(body);
    }

    private String sign(String text) {
        try {
            Mac mac = Mac.getInstance(ALGORITHM);
            mac.init(key);
            return Base64.getEncoder().encodeToString(mac.doFinal(text.getBytes(StandardCharsets.UTF_8)));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("every JVM has " + ALGORITHM, e);
        }
    }

    private boolean matches(String text, String signature) {
        byte[] expected = sign(text).getBytes(StandardCharsets.US_ASCII);
        return MessageDigest.isEqual(expected, signature.getBytes(StandardCharsets.US_ASCII));
    }

    private static String digest(byte[] body) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(body));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }
}
