package dev.quarantine.connect.rest.peers;

import java.nio.charset.StandardCharsets;
import java.security.InvalidKeyException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

import org.apache.kafka.common.config.types.Password;
import dev.quarantine.connect.rest.MonitorConfig;
import dev.quarantine.connect.rest.http.MonitorException;

/**
 * How workers of the aggregation prove to each other that they belong to the cluster (peer protocol
 * {@value PeerSigningInput#PROTOCOL}). Two keys are derived from {@code quarantine.monitor.peer.secret} with HKDF
 * ({@link Hkdf}): one signs requests, one answers. A request is signed (HMAC-SHA256) over {@link PeerSigningInput}:
 * method, path, raw query, body hash, time, a random nonce, the sender and the address it is sent to; an answer over
 * the request's nonce, its status and its body hash.
 *
 * <p>What each part stops: the target binds a request to the worker it was meant for (a forged member of the group
 * that receives one cannot use it at a real worker); the time bounds its use to {@link #MAX_AGE} either way, and
 * within that window the {@link SeenNonces} accepts each nonce once, so a captured request sent again is refused;
 * an answer is used only when signed for the nonce of the request it answers. Signatures are compared in constant
 * time; neither the secret nor a signature is ever logged or put in an answer.
 *
 * <p>The nonces are kept in memory, so a worker that restarts forgets them. A request signed before this worker's
 * {@code PeerAuth} was made (when its peer listener starts to answer, by this worker's clock) is therefore refused:
 * every request it could have answered before a restart is older than that, so a request captured then and sent
 * again within {@link #MAX_AGE} after the restart is refused, not answered a second time. What clock skew between
 * workers does to this rule: a sender whose clock runs behind this worker's by {@code d} is refused for the first
 * {@code d} after this worker starts (at most {@link #MAX_AGE}, beyond which it is refused anyway); a request
 * captured less than {@code d} before the restart from a sender whose clock runs ahead by {@code d} is accepted once
 * more. Keep the workers' clocks synchronized (NTP) to well under a second.
 */
public final class PeerAuth {

    static final String PROTOCOL_HEADER = "X-Quarantine-Peer-Protocol";
    public static final String TIME_HEADER = "X-Quarantine-Peer-Time";
    public static final String NONCE_HEADER = "X-Quarantine-Peer-Nonce";
    static final String SENDER_HEADER = "X-Quarantine-Peer-Sender";
    public static final String SIGNATURE_HEADER = "X-Quarantine-Peer-Signature";
    /** How far a request's time may be from this worker's clock (either way); its nonce is kept that long. */
    static final Duration MAX_AGE = Duration.ofSeconds(30);
    /** At most this many nonces are kept (about 3,000 requests a second at most within the window). */
    static final int REPLAY_CACHE_CAPACITY = 200_000;
    private static final String HMAC = "HmacSHA256";
    private static final byte[] SALT = "kafka-quarantine dead-letter monitor peers".getBytes(StandardCharsets.UTF_8);
    private static final Pattern NONCE = Pattern.compile("[A-Za-z0-9_-]{16,64}");
    private static final int MAX_SENDER_CHARS = 300;
    private static final Base64.Encoder BASE64 = Base64.getUrlEncoder().withoutPadding();
    private static final SecureRandom RANDOM = new SecureRandom();

    /** What a request carries to prove where it comes from; {@link #headers()} as sent. */
    public record Proof(long timeMs, String nonce, String sender, String signature) {
        public Map<String, String> headers() {
            Map<String, String> headers = new LinkedHashMap<>();
            headers.put(PROTOCOL_HEADER, PeerSigningInput.PROTOCOL);
            headers.put(TIME_HEADER, String.valueOf(timeMs));
            headers.put(NONCE_HEADER, nonce);
            headers.put(SENDER_HEADER, sender);
            headers.put(SIGNATURE_HEADER, signature);
            return headers;
        }
    }

    /** Why a request is refused. */
    public enum Reason {
        /** This worker has no secret (403). */
        NO_SECRET,
        /** The request speaks another peer protocol: another version of the plugin (400). */
        OTHER_PROTOCOL,
        /** Missing, malformed, stale, wrong or replayed proof (401). */
        NOT_PROVEN,
        /** Too many requests within the window to remember them all (503). */
        BUSY
    }

    /** A refused request: why, and a message that names no secret, signature or address. */
    public record Refusal(Reason reason, String message) {
        public MonitorException toException() {
            return switch (reason) {
                case NO_SECRET -> MonitorException.forbidden(message);
                case OTHER_PROTOCOL -> MonitorException.badRequest(message);
                case NOT_PROVEN -> MonitorException.unauthorized(message);
                case BUSY -> MonitorException.retryable(message, null);
            };
        }
    }

    private final byte[] requestKey;
    private final byte[] answerKey;
    private final Clock clock;
    private final SeenNonces replays;
    /** When this worker started to answer peers, by its clock: requests signed earlier are refused. */
    private final long startedMs;

    public PeerAuth(Optional<Password> secret, Clock clock) {
        byte[] material = secret.map(s -> s.value().getBytes(StandardCharsets.UTF_8)).orElse(null);
        this.requestKey = material == null ? null : Hkdf.derive(SALT, material, info("request"), 32);
        this.answerKey = material == null ? null : Hkdf.derive(SALT, material, info("answer"), 32);
        this.clock = clock;
        this.replays = new SeenNonces(REPLAY_CACHE_CAPACITY);
        this.startedMs = clock.millis();
    }

    private static byte[] info(String use) {
        return ("peer " + use + " key, protocol " + PeerSigningInput.PROTOCOL).getBytes(StandardCharsets.UTF_8);
    }

    /** Whether this worker has a secret, so can ask and answer other workers. */
    public boolean enabled() {
        return requestKey != null;
    }

    /** The proof of a request from {@code sender} to {@code target} (both {@code host:port}). */
    public Proof signRequest(String sender, String target, String method, String path, String rawQuery, byte[] body) {
        long now = clock.millis();
        byte[] nonceBytes = new byte[16];
        RANDOM.nextBytes(nonceBytes);
        String nonce = BASE64.encodeToString(nonceBytes);
        byte[] input = PeerSigningInput.request(method, path, rawQuery, body, now, nonce, sender, target);
        return new Proof(now, nonce, sender, BASE64.encodeToString(mac(requestKey, input)));
    }

    /**
     * Checks a request's proof; accepts each valid proof once.
     *
     * @param self    this worker's {@code host:port}, the address the request must have been signed for
     * @param headers the request's headers, names in lower case
     * @return empty when proven, else why not
     */
    public Optional<Refusal> verifyRequest(String self, String method, String path, String rawQuery, byte[] body,
                                    Map<String, String> headers) {
        Optional<Refusal> refusal = checkRequest(self, method, path, rawQuery, body, headers);
        if (refusal.isPresent()) {
            return refusal;
        }
        long timeMs = Long.parseLong(header(headers, TIME_HEADER).trim());
        return switch (replays.firstUse(header(headers, NONCE_HEADER), timeMs + MAX_AGE.toMillis(), clock.millis())) {
            case FIRST_USE -> Optional.empty();
            case REPLAYED -> refuse(Reason.NOT_PROVEN, "a request for this worker's share that was received before"
                    + " (its nonce is used): a replay");
            case FULL -> refuse(Reason.BUSY, "more signed requests within " + MAX_AGE.toSeconds() + " s than the"
                    + " " + REPLAY_CACHE_CAPACITY + " this worker remembers to refuse replays");
        };
    }

    /**
     * Checks a request's proof (protocol, time, signature) without recording its nonce: cheap (one HMAC), so the
     * listener's own thread can refuse an unproven request before it takes a handler thread. {@link #verifyRequest}
     * checks it again and then accepts each proof once.
     */
    public Optional<Refusal> checkRequest(String self, String method, String path, String rawQuery, byte[] body,
                                   Map<String, String> headers) {
        if (!enabled()) {
            return refuse(Reason.NO_SECRET, "a request for this worker's share, but " + MonitorConfig.PEER_SECRET_CONFIG
                    + " is not set here: set the same secret on every worker");
        }
        String protocol = header(headers, PROTOCOL_HEADER);
        if (protocol == null && header(headers, SIGNATURE_HEADER) == null) {
            return refuse(Reason.NOT_PROVEN, "a request for this worker's share without a peer signature");
        }
        if (!PeerSigningInput.PROTOCOL.equals(protocol)) {
            return refuse(Reason.OTHER_PROTOCOL, otherProtocol(protocol));
        }
        String time = header(headers, TIME_HEADER);
        String nonce = header(headers, NONCE_HEADER);
        String sender = header(headers, SENDER_HEADER);
        String signature = header(headers, SIGNATURE_HEADER);
        if (time == null || nonce == null || sender == null || signature == null) {
            return refuse(Reason.NOT_PROVEN, "a request for this worker's share without a peer signature");
        }
        long timeMs;
        try {
            timeMs = Long.parseLong(time.trim());
        } catch (NumberFormatException e) {
            return refuse(Reason.NOT_PROVEN, "a request for this worker's share with a malformed time");
        }
        if (!NONCE.matcher(nonce).matches() || sender.length() > MAX_SENDER_CHARS) {
            return refuse(Reason.NOT_PROVEN, "a request for this worker's share with a malformed nonce or sender");
        }
        if (timeMs < startedMs) {
            return refuse(Reason.NOT_PROVEN, "a request for this worker's share signed at " + timeMs + ", before this"
                    + " worker's peer listener started at " + startedMs + ": captured before a restart and sent again,"
                    + " or the sender's clock is behind this worker's (keep the workers' clocks synchronized)");
        }
        long now = clock.millis();
        if (Math.abs(now - timeMs) > MAX_AGE.toMillis()) {
            return refuse(Reason.NOT_PROVEN, "a request for this worker's share signed at " + timeMs + ", more than "
                    + MAX_AGE.toSeconds() + " s from now: a replay, or clocks apart");
        }
        byte[] input = PeerSigningInput.request(method, path, rawQuery, body, timeMs, nonce, sender, self);
        if (!matches(requestKey, input, signature)) {
            return refuse(Reason.NOT_PROVEN, "a request for this worker's share with a wrong signature (another "
                    + MonitorConfig.PEER_SECRET_CONFIG + ", or signed for another address)");
        }
        return Optional.empty();
    }

    /** The signature of an answer with {@code status} and {@code body} to the request with {@code nonce}. */
    public String signAnswer(String nonce, int status, byte[] body) {
        return BASE64.encodeToString(mac(answerKey, PeerSigningInput.answer(nonce, status, body)));
    }

    /** Whether {@code signature} proves that a worker with the secret gave this answer to this request. */
    public boolean verifiesAnswer(String nonce, int status, byte[] body, String signature) {
        return signature != null && matches(answerKey, PeerSigningInput.answer(nonce, status, body), signature);
    }

    private static String otherProtocol(String protocol) {
        String version = protocol == null ? "1 (no " + PROTOCOL_HEADER + " header)"
                : protocol.matches("\\d{1,4}") ? protocol : "unknown";
        return "a request of peer protocol " + version + ", while this worker speaks " + PeerSigningInput.PROTOCOL
                + ": the workers run different versions of the plugin (during a rolling upgrade, until every worker"
                + " runs the same version, figures are incomplete)";
    }

    private static String header(Map<String, String> headers, String name) {
        return headers.get(name.toLowerCase(Locale.ROOT));
    }

    private static Optional<Refusal> refuse(Reason reason, String message) {
        return Optional.of(new Refusal(reason, message));
    }

    private static boolean matches(byte[] key, byte[] input, String signature) {
        byte[] given;
        try {
            given = Base64.getUrlDecoder().decode(signature.trim());
        } catch (IllegalArgumentException e) {
            return false;
        }
        return MessageDigest.isEqual(mac(key, input), given);
    }

    private static byte[] mac(byte[] key, byte[] input) {
        try {
            Mac mac = Mac.getInstance(HMAC);
            mac.init(new SecretKeySpec(key, HMAC));
            return mac.doFinal(input);
        } catch (NoSuchAlgorithmException | InvalidKeyException e) {
            throw new IllegalStateException("every JVM has " + HMAC, e);
        }
    }
}
