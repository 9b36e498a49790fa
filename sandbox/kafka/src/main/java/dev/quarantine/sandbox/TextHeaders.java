package dev.quarantine.sandbox;

import java.nio.charset.StandardCharsets;

import org.apache.kafka.common.header.internals.RecordHeaders;

/** Record headers of text values, as tests write them: {@code TextHeaders.of("name", "value", ...)}, UTF-8. */
public final class TextHeaders {

    private TextHeaders() {
    }

    /** Headers {@code name=value} in the order given; a name given twice is added twice, as Kafka allows. */
    public static RecordHeaders of(String... namesAndValues) {
        RecordHeaders headers = new RecordHeaders();
        for (int i = 0; i < namesAndValues.length; i += 2) {
            headers.add(namesAndValues[i], namesAndValues[i + 1].getBytes(StandardCharsets.UTF_8));
        }
        return headers;
    }
}
