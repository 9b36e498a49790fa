package dev.quarantine.connect.rest.peers;

import java.security.InvalidKeyException;
import java.security.NoSuchAlgorithmException;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * HKDF with HMAC-SHA256 (RFC 5869): extract a pseudorandom key from the input key material and a salt, then expand it
 * into output keys, one per {@code info} label. Used to derive the peer listener's request and answer keys from
 * {@code quarantine.monitor.peer.secret}, so that no key is the secret itself and the two uses never share a key.
 */
final class Hkdf {

    private static final String HMAC = "HmacSHA256";
    private static final int HASH_LENGTH = 32;

    private Hkdf() {
    }

    /** RFC 5869 section 2.2: {@code PRK = HMAC-Hash(salt, IKM)}; an empty salt means {@code HashLen} zero bytes. */
    static byte[] extract(byte[] salt, byte[] inputKeyMaterial) {
        byte[] key = salt.length == 0 ? new byte[HASH_LENGTH] : salt;
        return mac(key).doFinal(inputKeyMaterial);
    }

    /** RFC 5869 section 2.3: {@code T(i) = HMAC-Hash(PRK, T(i-1) | info | i)}, the first {@code length} bytes. */
    static byte[] expand(byte[] pseudorandomKey, byte[] info, int length) {
        if (length < 1 || length > 255 * HASH_LENGTH) {
            throw new IllegalArgumentException("HKDF-SHA256 output length must be 1 to " + 255 * HASH_LENGTH);
        }
        Mac mac = mac(pseudorandomKey);
        byte[] out = new byte[length];
        byte[] previous = new byte[0];
        for (int i = 1, written = 0; written < length; i++) {
            mac.update(previous);
            mac.update(info);
            mac.update((byte) i);
            previous = mac.doFinal();
            int n = Math.min(previous.length, length - written);
            System.arraycopy(previous, 0, out, written, n);
            written += n;
        }
        return out;
    }

    /** Extract then expand. */
    static byte[] derive(byte[] salt, byte[] inputKeyMaterial, byte[] info, int length) {
        return expand(extract(salt, inputKeyMaterial), info, length);
    }

    private static Mac mac(byte[] key) {
        try {
            Mac mac = Mac.getInstance(HMAC);
            mac.init(new SecretKeySpec(key, HMAC));
            return mac;
        } catch (NoSuchAlgorithmException | InvalidKeyException e) {
            throw new IllegalStateException("every JVM has " + HMAC, e);
        }
    }
}
