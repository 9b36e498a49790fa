package dev.quarantine.connect.rest.replays;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.Optional;
import java.util.regex.Pattern;
import dev.quarantine.connect.rest.http.MonitorException;

/**
 * The id of a replay started from the monitor (its connector's name and its {@code replay.id}): random, or, when the
 * request carries an {@code Idempotency-Key}, derived from the dead-letter topic and that key, so that a retried
 * request names the replay the first one started. The derivation hashes a length-prefixed encoding of both (SHA-256),
 * so no two (topic, key) pairs share an encoding; a key is 1 to {@value #MAX_KEY_CHARS} of a-z, A-Z, 0-9, '.', '_',
 * ':' and '-' (a UUID fits).
 */
public final class ReplayIds {

    public static final String PREFIX = "replay-";
    public static final String IDEMPOTENCY_KEY_HEADER = "Idempotency-Key";
    static final int MAX_KEY_CHARS = 100;
    private static final Pattern ID = Pattern.compile("[a-zA-Z0-9._-]{1,200}");
    private static final Pattern KEY = Pattern.compile("[a-zA-Z0-9._:-]{1," + MAX_KEY_CHARS + "}");
    private static final SecureRandom RANDOM = new SecureRandom();

    private ReplayIds() {
    }

    /** A new random id, or the one {@code idempotencyKey} derives for {@code topic}. @throws MonitorException 400 */
    static String forRequest(String topic, Optional<String> idempotencyKey) {
        if (idempotencyKey.isEmpty()) {
            byte[] random = new byte[6];
            RANDOM.nextBytes(random);
            return PREFIX + HexFormat.of().formatHex(random);
        }
        String key = idempotencyKey.get();
        if (!KEY.matcher(key).matches()) {
            throw MonitorException.badRequest("the " + IDEMPOTENCY_KEY_HEADER + " header must be 1 to " + MAX_KEY_CHARS
                    + " of a-z, A-Z, 0-9, '.', '_', ':' and '-'");
        }
        return PREFIX + "k" + HexFormat.of().formatHex(sha256(topic, key), 0, 16);
    }

    /** @throws MonitorException 400 when {@code id} cannot be a replay's id */
    static void check(String id) {
        if (id == null || !ID.matcher(id).matches()) {
            throw MonitorException.badRequest("a replay id is 1 to 200 of a-z, A-Z, 0-9, '.', '_' and '-'");
        }
    }

    private static byte[] sha256(String topic, String key) {
        byte[] t = topic.getBytes(StandardCharsets.UTF_8);
        byte[] k = key.getBytes(StandardCharsets.UTF_8);
        ByteBuffer encoded = ByteBuffer.allocate(8 + t.length + k.length).putInt(t.length).put(t).putInt(k.length)
                .put(k);
        try {
            return MessageDigest.getInstance("SHA-256").digest(encoded.array());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }
}
