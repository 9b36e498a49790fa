package dev.quarantine.txn.progress;

import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.function.BiFunction;

/** The {@link KeyedFormat} the tests of {@link CompactedTopicReader} read with. */
final class TestFormats {

    /** Reads {@code v=<text>}, refuses anything else. */
    static final KeyedFormat<String> FORMAT = (key, value, position) -> {
        String text = new String(value, StandardCharsets.UTF_8);
        if (!text.startsWith("v=")) {
            throw new IllegalArgumentException("unknown format");
        }
        return Optional.of(text.substring(2));
    };

    private TestFormats() {
    }

    /** {@link #FORMAT}, with its tombstones answered by {@code tombstone} (given the key and the position). */
    static KeyedFormat<String> withTombstones(BiFunction<String, String, Optional<String>> tombstone) {
        return new KeyedFormat<>() {
            @Override
            public Optional<String> read(String key, byte[] value, String position) {
                return FORMAT.read(key, value, position);
            }

            @Override
            public Optional<String> tombstone(String key, String position) {
                return tombstone.apply(key, position);
            }
        };
    }
}
