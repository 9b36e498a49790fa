package dev.quarantine.replay.letters;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;

/**
 * Reads a header of a dead-letter record as text, bounded: anyone who can write to a dead-letter topic shapes its
 * headers, so at most {@code maxChars} characters are decoded (from at most 4 bytes per character), a longer value is
 * cut and marked with {@link #CUT_MARK}, and a value that is not UTF-8 reads as {@link #UNPARSEABLE}. Of repeated
 * headers the last counts, as Kafka's {@code lastHeader}.
 */
public final class HeaderText {

    /** Longest error class, topic, connector, task or stage name kept. */
    public static final int MAX_NAME_CHARS = 255;
    /** Longest error message kept (only with payloads exposed). */
    public static final int MAX_MESSAGE_CHARS = 500;
    /** Longest number read (a longer one is no number). */
    public static final int MAX_NUMBER_CHARS = 20;
    public static final String CUT_MARK = "...";
    public static final String UNPARSEABLE = "(unparseable)";

    private HeaderText() {
    }

    /** The last header {@code name} as text; {@code null} when absent or without a value. */
    public static String last(Headers headers, String name, int maxChars) {
        if (headers == null) {
            return null;
        }
        Header header = headers.lastHeader(name);
        return header == null || header.value() == null ? null : decode(header.value(), maxChars);
    }

    /** {@code value} as UTF-8 text of at most {@code maxChars} characters (and the mark when cut). */
    public static String decode(byte[] value, int maxChars) {
        int window = (int) Math.min(value.length, (maxChars + 1L) * 4);
        boolean whole = window == value.length;
        CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT);
        CharBuffer text = CharBuffer.allocate(maxChars + 1);
        CoderResult result = decoder.decode(ByteBuffer.wrap(value, 0, window), text, whole);
        if (result.isError() || (whole && !result.isOverflow() && decoder.flush(text).isError())) {
            return UNPARSEABLE;
        }
        text.flip();
        return text.length() <= maxChars && !result.isOverflow() && whole ? text.toString()
                : text.subSequence(0, Math.min(maxChars, text.length())) + CUT_MARK;
    }

    /** The last header {@code name} as a whole number; {@code null} when absent or not a number. */
    public static Long number(Headers headers, String name) {
        String text = last(headers, name, MAX_NUMBER_CHARS);
        if (text == null || text.endsWith(CUT_MARK)) {
            return null;
        }
        try {
            return Long.parseLong(text.trim());
        } catch (NumberFormatException e) {
            return null; // a header some other tool wrote differently: shown as unknown
        }
    }
}
