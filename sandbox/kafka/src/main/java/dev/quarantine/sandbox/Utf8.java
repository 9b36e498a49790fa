package dev.quarantine.sandbox;

import java.nio.charset.StandardCharsets;

/**
 * Text as tests write and read record keys, values and header values: UTF-8, null kept null (a tombstone's value,
 * a record without a key).
 */
public final class Utf8 {

    private Utf8() {
    }

    /** {@code text} in UTF-8; null for null. */
    public static byte[] bytes(String text) {
        return text == null ? null : text.getBytes(StandardCharsets.UTF_8);
    }

    /** {@code bytes} read as UTF-8; null for null. */
    public static String text(byte[] bytes) {
        return bytes == null ? null : new String(bytes, StandardCharsets.UTF_8);
    }
}
